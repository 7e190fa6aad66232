// SPDX-License-Identifier: GPL-3.0-or-later
/// The pictures the game comes with: drawn for it as SVG (docs/gui.md, Pictures), each
/// with large shapes in many colours, so that every piece, even of a 10×10 board, can be
/// told from its neighbours. They are compiled into the program, so the window needs no
/// data folder to find them.
import TiltSystem
public enum BuiltInPictures {
    public struct Picture: Equatable, Sendable {
        /// The name the settings file and `--picture` use.
        public var name: String
        /// What the picker calls it.
        public var title: String
        public var svg: String
    }

    public static let all: [Picture] = [hills, harbour, balloons, mosaic]

    public static func named(_ name: String) -> Picture? { all.first { $0.name == name } }

    /// Dawn over rolling hills: a sun, a red house and a tree, a striped field.
    static let hills = Picture(name: "hills", title: L("Hills at dawn"), svg: """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
        <defs>
        <linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="512">
        <stop offset="0" stop-color="#1f2f7a"/><stop offset="0.45" stop-color="#b4528c"/><stop offset="0.75" stop-color="#ffb347"/>
        </linearGradient>
        </defs>
        <rect width="512" height="512" fill="url(#sky)"/>
        <circle cx="372" cy="210" r="78" fill="#ffe066"/>
        <circle cx="372" cy="210" r="58" fill="#fff3b0"/>
        <circle cx="96" cy="70" r="5" fill="#ffffff"/><circle cx="170" cy="40" r="3" fill="#ffffff"/>
        <circle cx="260" cy="84" r="4" fill="#ffffff"/><circle cx="40" cy="140" r="3" fill="#ffffff"/>
        <path d="M118 150 l14 10 l14 -10 M160 120 l10 7 l10 -7" stroke="#2a1a40" stroke-width="5" fill="none"/>
        <path d="M0 300 Q90 210 190 270 T400 250 T512 240 L512 512 L0 512 Z" fill="#6a4c9c"/>
        <path d="M0 350 Q120 280 250 330 T512 310 L512 512 L0 512 Z" fill="#2f9e6a"/>
        <path d="M0 410 Q150 350 300 400 T512 380 L512 512 L0 512 Z" fill="#1d6b43"/>
        <rect x="300" y="330" width="80" height="60" fill="#d7263d"/>
        <polygon points="290,332 340,290 390,332" fill="#5b2333"/>
        <rect x="330" y="352" width="20" height="38" fill="#ffd166"/>
        <rect x="120" y="300" width="14" height="70" fill="#6b3e26"/>
        <circle cx="127" cy="290" r="40" fill="#3bb273"/>
        <circle cx="105" cy="305" r="24" fill="#57cc99"/>
        <path d="M0 450 L512 430 L512 452 L0 474 Z" fill="#f4d35e"/>
        <path d="M0 488 L512 468 L512 490 L0 512 Z" fill="#ee964b"/>
        </svg>
        """)

    /// A harbour: a red-sailed boat on a blue sea, a striped lighthouse, clouds.
    static let harbour = Picture(name: "harbour", title: L("Harbour"), svg: """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
        <defs>
        <linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="300">
        <stop offset="0" stop-color="#3a86ff"/><stop offset="1" stop-color="#bde0fe"/>
        </linearGradient>
        <linearGradient id="sea" gradientUnits="userSpaceOnUse" x1="0" y1="290" x2="0" y2="512">
        <stop offset="0" stop-color="#0077b6"/><stop offset="1" stop-color="#03045e"/>
        </linearGradient>
        </defs>
        <rect width="512" height="300" fill="url(#sky)"/>
        <ellipse cx="120" cy="90" rx="70" ry="26" fill="#ffffff"/>
        <ellipse cx="160" cy="74" rx="44" ry="24" fill="#ffffff"/>
        <ellipse cx="400" cy="140" rx="60" ry="20" fill="#f1faee"/>
        <circle cx="450" cy="60" r="30" fill="#ffbe0b"/>
        <rect y="290" width="512" height="222" fill="url(#sea)"/>
        <path d="M0 330 Q32 318 64 330 T128 330 T192 330 T256 330 T320 330 T384 330 T448 330 T512 330" stroke="#90e0ef" stroke-width="6" fill="none"/>
        <path d="M0 420 Q32 408 64 420 T128 420 T192 420 T256 420 T320 420 T384 420 T448 420 T512 420" stroke="#48cae4" stroke-width="6" fill="none"/>
        <polygon points="10,300 90,300 80,240 20,240" fill="#8d6e63"/>
        <rect x="34" y="120" width="32" height="120" fill="#ffffff"/>
        <rect x="34" y="140" width="32" height="22" fill="#e63946"/>
        <rect x="34" y="184" width="32" height="22" fill="#e63946"/>
        <rect x="28" y="104" width="44" height="18" fill="#1d3557"/>
        <polygon points="30,104 50,80 70,104" fill="#e63946"/>
        <polygon points="240,370 440,370 410,410 270,410" fill="#6d2e46"/>
        <rect x="336" y="160" width="8" height="212" fill="#3d2c2e"/>
        <polygon points="332,170 332,360 230,360" fill="#f94144"/>
        <polygon points="348,190 348,360 430,360" fill="#f9c74f"/>
        <polygon points="344,150 344,166 374,158" fill="#43aa8b"/>
        <circle cx="300" cy="390" r="7" fill="#f1faee"/><circle cx="330" cy="390" r="7" fill="#f1faee"/>
        <circle cx="360" cy="390" r="7" fill="#f1faee"/>
        <path d="M180 220 l12 8 l12 -8 M210 200 l9 6 l9 -6" stroke="#1d3557" stroke-width="4" fill="none"/>
        </svg>
        """)

    /// Hot-air balloons over a town, each with its own colours.
    static let balloons = Picture(name: "balloons", title: L("Balloons"), svg: """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
        <defs>
        <linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="512">
        <stop offset="0" stop-color="#00b4d8"/><stop offset="1" stop-color="#caf0f8"/>
        </linearGradient>
        </defs>
        <rect width="512" height="512" fill="url(#sky)"/>
        <ellipse cx="410" cy="60" rx="60" ry="18" fill="#ffffff"/>
        <ellipse cx="80" cy="250" rx="56" ry="16" fill="#ffffff"/>
        <ellipse cx="140" cy="120" rx="70" ry="80" fill="#ef476f"/>
        <ellipse cx="140" cy="120" rx="30" ry="80" fill="#ffd166"/>
        <polygon points="95,180 185,180 155,230 125,230" fill="#ef476f"/>
        <rect x="125" y="240" width="30" height="24" fill="#7f5539"/>
        <ellipse cx="340" cy="200" rx="56" ry="64" fill="#06d6a0"/>
        <ellipse cx="340" cy="200" rx="20" ry="64" fill="#118ab2"/>
        <polygon points="305,248 375,248 352,290 328,290" fill="#06d6a0"/>
        <rect x="328" y="298" width="24" height="20" fill="#7f5539"/>
        <ellipse cx="240" cy="60" rx="34" ry="40" fill="#8338ec"/>
        <ellipse cx="240" cy="60" rx="12" ry="40" fill="#ff006e"/>
        <rect x="232" y="108" width="16" height="12" fill="#7f5539"/>
        <ellipse cx="450" cy="330" rx="30" ry="34" fill="#fb5607"/>
        <ellipse cx="450" cy="330" rx="10" ry="34" fill="#ffbe0b"/>
        <rect x="443" y="372" width="14" height="11" fill="#7f5539"/>
        <path d="M0 430 Q128 400 256 430 T512 420 L512 512 L0 512 Z" fill="#80b918"/>
        <rect x="40" y="400" width="60" height="70" fill="#f28482"/><polygon points="32,402 70,368 108,402" fill="#6d597a"/>
        <rect x="150" y="420" width="50" height="60" fill="#f6bd60"/><polygon points="144,422 175,394 206,422" fill="#6d597a"/>
        <rect x="300" y="410" width="70" height="70" fill="#84a59d"/><polygon points="292,412 335,376 378,412" fill="#6d597a"/>
        <rect x="420" y="420" width="56" height="62" fill="#f5cac3"/><polygon points="414,422 448,392 482,422" fill="#6d597a"/>
        <rect y="482" width="512" height="30" fill="#55a630"/>
        </svg>
        """)

    /// Circles and triangles in a 10×10 grid of colours: every piece of every size differs.
    static let mosaic = Picture(name: "mosaic", title: L("Mosaic"), svg: mosaicSVG())

    /// A colour wheel walked across the grid (hue by column, lightness by row) with a
    /// shape in each square whose colour is the opposite hue.
    static func mosaicSVG() -> String {
        var shapes = ""
        for row in 0..<10 {
            for column in 0..<10 {
                let hue = Double((column * 36 + row * 11) % 360)
                let light = 0.35 + 0.4 * Double(row) / 9
                let x = column * 51 + 1, y = row * 51 + 1
                shapes += "<rect x=\"\(x)\" y=\"\(y)\" width=\"51\" height=\"51\" fill=\"\(hex(hue, 0.75, light))\"/>"
                let shape = hex((hue + 180).truncatingRemainder(dividingBy: 360), 0.8, 1 - light)
                if (row + column) % 2 == 0 {
                    shapes += "<circle cx=\"\(x + 25)\" cy=\"\(y + 25)\" r=\"\(10 + (row * 3 + column) % 12)\" fill=\"\(shape)\"/>"
                } else {
                    shapes += "<polygon points=\"\(x + 8),\(y + 43) \(x + 25),\(y + 8) \(x + 43),\(y + 43)\" fill=\"\(shape)\"/>"
                }
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">\
            <rect width="512" height="512" fill="#202030"/>\(shapes)</svg>
            """
    }

    /// `#rrggbb` of a hue (degrees), saturation and lightness (0…1).
    static func hex(_ hue: Double, _ saturation: Double, _ lightness: Double) -> String {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let h = hue / 60
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        let digits = Array("0123456789abcdef")
        return "#" + [r, g, b].map { value in
            let byte = Int(((value + m) * 255).rounded())
            return String([digits[max(0, min(255, byte)) / 16], digits[max(0, min(255, byte)) % 16]])
        }.joined()
    }
}
