// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The folders above a file of the player's, made when missing with mode 0700 as the XDG
/// base-directory spec asks: what the window keeps is the player's alone.
enum PrivateFolders {
    /// Every folder above `path`; one that cannot be made shows up as the file's own failure.
    static func create(above path: String) {
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            _ = try? Syscall.call("mkdir") { mkdir(folder, 0o700) == 0 || errno == EEXIST ? 0 : -1 }
        }
    }
}
