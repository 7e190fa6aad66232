// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

/// The window's settings file as text: what it keeps, what it forgives, what it calls damaged.
@Suite struct GUISettingsTests {
    static func decoded(_ text: String) throws(GUISettings.Damage) -> GUISettings {
        try GUISettings.decode(Array(text.utf8))
    }

    static let awkwardPaths = [
        "/home/ann/Pictures/Sea at dawn.jpg",
        "/home/ann/a = b == c.png",
        "/home/zoë/Bilder/Straße 東京 🌅.webp",
        "/home/ann/ leading and trailing .png ",
        "/home/ann/\"quoted\" \\back\\slash.svg",
        "/home/ann/line\nbreak\ttab\rreturn\u{7}bell\u{2028}separator.jpeg",
        "/home/ann/# not a comment.png",
    ]

    @Test(arguments: awkwardPaths)
    func aPathComesBackAsItWasWritten(path: String) throws {
        let settings = GUISettings(picture: .file(path), numberCorners: .hidden, sound: false)
        let encoded = settings.encoded()
        #expect(try GUISettings.decode(encoded) == settings)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 5,
                "a comment, three lines and the final newline, whatever the path holds: \(text)")
    }

    @Test func everyValueRoundTrips() throws {
        for picture in [PictureChoice.numbers, .builtIn("lighthouse"), .builtIn("two words"), .file("/p.png")] {
            for corners in NumberCorners.allCases {
                for sound in [true, false] {
                    let settings = GUISettings(picture: picture, numberCorners: corners, sound: sound)
                    #expect(try GUISettings.decode(settings.encoded()) == settings)
                }
            }
        }
    }

    @Test func theFileIsReadableByAPerson() {
        let text = String(decoding: GUISettings(picture: .file("/home/ann/Pictures/Sea at dawn.jpg")).encoded(), as: UTF8.self)
        #expect(text == """
            \(GUISettings.header)
            picture = /home/ann/Pictures/Sea at dawn.jpg
            number-corners = auto
            sound = on

            """)
        #expect(text.hasPrefix("# "))
    }

    @Test func missingKeysTakeTheirDefaultsAndUnknownOnesAreIgnored() throws {
        #expect(try Self.decoded("") == .defaults)
        #expect(try Self.decoded("# only a comment\n\n") == .defaults)
        let settings = try Self.decoded("colour-scheme = dark\nsound=off\n  animations =  fast  \n")
        #expect(settings == GUISettings(picture: .numbers, numberCorners: .automatic, sound: false))
        #expect(GUISettings.defaults == GUISettings(picture: .numbers, numberCorners: .automatic, sound: true))
    }

    @Test func handWrittenLinesAreForgivingAboutBlanksAndLineEnds() throws {
        let settings = try Self.decoded("\t# edited by hand\r\n  picture\t=   built-in:lighthouse  \r\nsound = off\r\nsound = on")
        #expect(settings == GUISettings(picture: .builtIn("lighthouse"), sound: true), "the later line wins")
    }

    @Test(arguments: [
        ([0x70, 0x69, 0x63, 0xFF, 0x0A], "not UTF-8 text"),
        (Array("picture = numbers\njust some words\n".utf8), "line 2 is not key = value"),
        (Array(" = numbers\n".utf8), "line 1 is not key = value"),
        (Array("sound = loud\n".utf8), "line 1: sound is 'loud', not on or off"),
        (Array("\n\nnumber-corners = sometimes\n".utf8), "line 3: number-corners is 'sometimes', not auto, on or off"),
        (Array("picture = Pictures/sea.jpg\n".utf8), "line 1: picture is 'Pictures/sea.jpg', not numbers, built-in:NAME or an absolute path"),
        (Array("picture = built-in:\n".utf8), "line 1: picture is 'built-in:', not numbers, built-in:NAME or an absolute path"),
        (Array("picture = \"/a.png\n".utf8), "line 1: a quote is not closed"),
        (Array("picture = \"/a.png\" extra\n".utf8), "line 1: text after the closing quote"),
        (Array("picture = \"/a\\q.png\"\n".utf8), "line 1: an unknown escape after \\"),
        (Array("picture = \"/a\\u{zz}.png\"\n".utf8), "line 1: a \\u escape is not \\u{HEX}"),
    ] as [([UInt8], String)])
    func aDamagedFileSaysWhy(bytes: [UInt8], reason: String) {
        #expect(throws: GUISettings.Damage(reason)) { try GUISettings.decode(bytes) }
    }

    @Test func aBadValueIsShownOnOneLine() {
        #expect(throws: GUISettings.Damage("line 1: sound is '\"o\\rn\"', not on or off")) {
            try Self.decoded("sound = o\rn\n")
        }
    }

    @Test func aFileFarLargerThanSettingsIsDamaged() {
        let bytes = Array(("# " + String(repeating: "x", count: GUISettings.sizeLimit)).utf8)
        #expect(throws: GUISettings.Damage("over 64 KiB")) { try GUISettings.decode(bytes) }
    }

    @Test func theFileIsInTheConfigHome() {
        #expect(GUISettings.path(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/ann"]) == "/cfg/tiltpuzzle/gui.conf")
        #expect(GUISettings.path(environment: ["HOME": "/home/ann"]) == "/home/ann/.config/tiltpuzzle/gui.conf")
        #expect(GUISettings.path(environment: ["HOME": "/"]) == "/.config/tiltpuzzle/gui.conf")
        // The XDG spec: a relative XDG_CONFIG_HOME is invalid, and ignored.
        #expect(GUISettings.path(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/ann"])
                == "/home/ann/.config/tiltpuzzle/gui.conf")
        #expect(GUISettings.path(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/ann"])
                == "/home/ann/.config/tiltpuzzle/gui.conf")
        #expect(GUISettings.path(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "home"]) == nil)
        #expect(GUISettings.path(environment: [:]) == nil)
    }
}
