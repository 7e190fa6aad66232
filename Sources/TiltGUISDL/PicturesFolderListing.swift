// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUI
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reads the player's pictures folder for the picker (docs/gui.md, Pictures); which
/// files are offered, and in what order, is `PictureFiles`' rule.
///
/// Bounds: the folder's own entries only, no sub-folders; at most
/// `PictureFiles.entriesRead` (2000) entries read, and only those named like pictures
/// looked at further (one `stat` each, following symbolic links); at most
/// `PictureFiles.kept` (120) pictures returned. A folder that is missing or cannot be
/// read gives no pictures; a read that fails part-way keeps what it read.
public enum PicturesFolderListing {
    /// The player's pictures folder: `XDG_PICTURES_DIR`, or xdg-user-dirs' file, or `~/Pictures`.
    public static func folder(environment: [String: String] = ProcessEnvironment.current) -> String? {
        let userDirs = PicturesFolder.userDirsPath(environment: environment)
            .flatMap { try? FileDescriptor.readText($0, limit: 64 * 1024) }
        return PicturesFolder.path(environment: environment, userDirs: userDirs)
    }

    /// The pictures the picker offers from `folder`, as absolute paths, newest first;
    /// `entriesRead` is for tests.
    public static func pictures(in folder: String, entriesRead: Int = PictureFiles.entriesRead) -> [String] {
        PictureFiles.pictures(in: folder, entries: entries(in: folder, limit: entriesRead))
    }

    /// The folder's entries named like pictures, with their kind and time; at most
    /// `limit` entries read.
    static func entries(in folder: String, limit: Int) -> [PictureFiles.Entry] {
        var handle: OpaquePointer?
        guard (try? Syscall.call("opendir", { () -> Int32 in
            handle = opendir(folder)
            return handle == nil ? -1 : 0
        })) != nil, let directory = handle else { return [] }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [PictureFiles.Entry] = []
        var read = 0
        while read < limit {
            var entry: UnsafeMutablePointer<dirent>?
            // readdir says the end and a failure alike, with a null pointer; only errno tells them apart.
            guard (try? Syscall.call("readdir", { () -> Int32 in
                errno = 0
                entry = readdir(directory)
                return entry == nil && errno != 0 ? -1 : 0
            })) != nil, let entry else { break }
            // A name that is not UTF-8 could not be opened again from the text of its path: left out.
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(validatingCString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            read += 1
            guard let name, PictureFiles.isPictureName(name) else { continue }
            var status = stat()
            // Following links: a link to a picture is offered as the picture is.
            guard (try? Syscall.call("fstatat", { fstatat(descriptor, name, &status, 0) })) != nil else { continue }
            let kind: PictureFiles.Entry.Kind = switch status.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            default: .other
            }
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            entries.append(PictureFiles.Entry(name: name, kind: kind, modified: modified))
        }
        return entries
    }
}
