// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

/// The player's pictures folder as xdg-user-dirs names it, and which of its files the picker offers.
@Suite struct PicturesFolderTests {
    /// As xdg-user-dirs-update writes the file.
    static let written = """
        # This file is written by xdg-user-dirs-update
        # If you want to change or add directories, just edit the line you're
        # interested in. All local changes will be retained on the next run.
        # Format is XDG_xxx_DIR="$HOME/yyy", where yyy is a shell-escaped
        # homedir-relative path, or XDG_xxx_DIR="/yyy", where /yyy is an
        # absolute path. No other format is supported.
        #
        XDG_DESKTOP_DIR="$HOME/Schreibtisch"
        XDG_DOWNLOAD_DIR="$HOME/Downloads"
        XDG_PICTURES_DIR="$HOME/Bilder"
        XDG_VIDEOS_DIR="$HOME/Videos"

        """
    static let home = ["HOME": "/home/ann"]

    @Test func theFolderXdgUserDirsWroteIsTheOne() {
        #expect(PicturesFolder.path(environment: Self.home, userDirs: Self.written) == "/home/ann/Bilder")
    }

    @Test func theEnvironmentComesFirstThenTheFileThenHomesPictures() {
        let set = ["HOME": "/home/ann", "XDG_PICTURES_DIR": "/srv/photos"]
        #expect(PicturesFolder.path(environment: set, userDirs: Self.written) == "/srv/photos")
        let relative = ["HOME": "/home/ann", "XDG_PICTURES_DIR": "photos"]
        #expect(PicturesFolder.path(environment: relative, userDirs: Self.written) == "/home/ann/Bilder")
        #expect(PicturesFolder.path(environment: Self.home, userDirs: nil) == "/home/ann/Pictures")
        #expect(PicturesFolder.path(environment: Self.home, userDirs: "XDG_MUSIC_DIR=\"$HOME/Music\"\n") == "/home/ann/Pictures")
        #expect(PicturesFolder.path(environment: [:], userDirs: nil) == nil)
        #expect(PicturesFolder.path(environment: [:], userDirs: "XDG_PICTURES_DIR=\"/media/photos\"") == "/media/photos")
    }

    @Test(arguments: [
        ("XDG_PICTURES_DIR=\"/media/card/DCIM\"", "/media/card/DCIM"),
        ("  XDG_PICTURES_DIR =\t\"$HOME/My Pictures\"  # trailing", "/home/ann/My Pictures"),
        ("XDG_PICTURES_DIR=\"$HOME/Fotos \\\"2024\\\" \\\\ \\$x\"", "/home/ann/Fotos \"2024\" \\ $x"),
        ("XDG_PICTURES_DIR=\"$HOME/Zdjęcia/写真\"", "/home/ann/Zdjęcia/写真"),
        ("XDG_PICTURES_DIR=\"$HOME/\"", "/home/ann"),
        ("XDG_PICTURES_DIR=\"$HOME/Bilder\"\r\nXDG_VIDEOS_DIR=\"$HOME/Videos\"\r\n", "/home/ann/Bilder"),
        ("XDG_PICTURES_DIR=\"/first\"\nXDG_PICTURES_DIR=\"/second\"", "/second"),
        ("XDG_PICTURES_DIR=\"/good\"\nXDG_PICTURES_DIR=\"relative/path\"", "/good"),
    ] as [(String, String)])
    func aLineAsTheLookupReadsIt(line: String, folder: String) {
        #expect(PicturesFolder.picturesDirectory(inUserDirs: line, home: "/home/ann") == folder)
    }

    @Test(arguments: [
        "# XDG_PICTURES_DIR=\"/commented\"",
        "XDG_PICTURES_DIR=/unquoted",
        "XDG_PICTURES_DIR=\"relative\"",
        "XDG_PICTURES_DIR=\"$HOME\"",
        "XDG_PICTURES_DIR=\"~/Pictures\"",
        "XDG_PICTURES_DIRS=\"/other\"",
        "XDG_PICTURES_DIR: \"/colon\"",
        "",
    ])
    func aLineTheLookupSkips(line: String) {
        #expect(PicturesFolder.picturesDirectory(inUserDirs: line, home: "/home/ann") == nil)
    }

    @Test func aHomeRelativeLineNeedsAHome() {
        #expect(PicturesFolder.picturesDirectory(inUserDirs: Self.written, home: nil) == nil)
    }

    @Test func xdgUserDirsFileIsInTheConfigHome() {
        #expect(PicturesFolder.userDirsPath(environment: ["XDG_CONFIG_HOME": "/cfg"]) == "/cfg/user-dirs.dirs")
        #expect(PicturesFolder.userDirsPath(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/ann"])
                == "/home/ann/.config/user-dirs.dirs")
        #expect(PicturesFolder.userDirsPath(environment: [:]) == nil)
    }
}

@Suite struct PictureFilesTests {
    static func entry(_ name: String, _ kind: PictureFiles.Entry.Kind = .regular, at seconds: Int64 = 0) -> PictureFiles.Entry {
        PictureFiles.Entry(name: name, kind: kind, modified: seconds * 1_000_000_000)
    }

    @Test func picturesByTheirNamesEndingInAnyCase() {
        for name in ["a.png", "B.PNG", "c.Jpg", "d.jpeg", "e.JPEG", "f.webp", "g.svg", "photo.2024.jpg", "with space.png"] {
            #expect(PictureFiles.isPictureName(name), "\(name)")
        }
        for name in [".hidden.png", ".png", "notes.txt", "png", "a.png.txt", "a.gif", "a.tiff", "a.", "archive.jpg.gz", ""] {
            #expect(!PictureFiles.isPictureName(name), "\(name)")
        }
    }

    @Test func onlyRegularFilesNewestFirstThenByName() {
        let entries = [
            Self.entry("old.png", at: 100), Self.entry("b.jpg", at: 300), Self.entry("a.jpg", at: 300),
            Self.entry("folder.png", .directory, at: 900), Self.entry("fifo.png", .other, at: 900),
            Self.entry("notes.txt", at: 800), Self.entry(".secret.png", at: 700),
            PictureFiles.Entry(name: "later.webp", kind: .regular, modified: 300 * 1_000_000_000 + 1),
        ]
        #expect(PictureFiles.pictures(in: "/home/ann/Pictures", entries: entries) == [
            "/home/ann/Pictures/later.webp", "/home/ann/Pictures/a.jpg", "/home/ann/Pictures/b.jpg",
            "/home/ann/Pictures/old.png",
        ])
        #expect(PictureFiles.pictures(in: "/", entries: [Self.entry("x.svg")]) == ["/x.svg"])
        #expect(PictureFiles.pictures(in: "/p/", entries: [Self.entry("x.svg")]) == ["/p/x.svg"])
    }

    @Test func atMostTheNewestHundredAndTwenty() {
        let entries = (0..<300).map { Self.entry("p\($0).png", at: Int64($0)) }
        let kept = PictureFiles.pictures(in: "/p", entries: entries.shuffled())
        #expect(kept.count == PictureFiles.kept && PictureFiles.kept == 120)
        #expect(kept.first == "/p/p299.png" && kept.last == "/p/p180.png")
    }

    @Test func aFileIsLabelledWithItsName() {
        #expect(PictureFiles.name(ofPath: "/home/ann/Pictures/Sea at dawn.jpg") == "Sea at dawn.jpg")
    }
}
