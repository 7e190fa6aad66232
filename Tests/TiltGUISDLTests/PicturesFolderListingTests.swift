// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI
import TiltGUISDL
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The pictures folder as the window reads it: its own pictures, links followed, newest first.
@Suite struct PicturesFolderListingTests {
    static func touch(_ path: String, modified seconds: Int) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create], permissions: 0o600)
        try file.close()
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    @Test func onlyTheFoldersOwnPicturesNewestFirstLinksFollowed() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path
        try Self.touch(path + "/old.png", modified: 1_000)
        try Self.touch(path + "/New Photo.JPG", modified: 3_000)
        try Self.touch(path + "/same time b.webp", modified: 2_000)
        try Self.touch(path + "/same time a.svg", modified: 2_000)
        try Self.touch(path + "/.hidden.png", modified: 4_000)
        try Self.touch(path + "/notes.txt", modified: 4_000)
        #expect(mkdir(path + "/album.jpg", 0o700) == 0)
        #expect(mkdir(path + "/album", 0o700) == 0)
        try Self.touch(path + "/album/deeper.png", modified: 5_000)
        try Self.touch(path + "/album/target.png", modified: 2_500)
        #expect(symlink(path + "/album/target.png", path + "/linked.jpeg") == 0)
        #expect(symlink(path + "/nowhere.png", path + "/dangling.png") == 0)
        #expect(symlink(path + "/album", path + "/folder-link.png") == 0)
        #expect(PicturesFolderListing.pictures(in: path) == [
            path + "/New Photo.JPG", path + "/linked.jpeg", path + "/same time a.svg", path + "/same time b.webp",
            path + "/old.png",
        ])
    }

    @Test func aMissingOrUnreadableFolderHasNoPictures() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        #expect(PicturesFolderListing.pictures(in: folder.path + "/missing").isEmpty)
        try Self.touch(folder.path + "/file.png", modified: 1)
        #expect(PicturesFolderListing.pictures(in: folder.path + "/file.png").isEmpty)
    }

    @Test func atMostTheNewestHundredAndTwentyOfAFullFolder() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        for number in 0..<(PictureFiles.kept + 10) {
            try Self.touch(folder.path + "/p\(number).png", modified: 10_000 + number)
        }
        let pictures = PicturesFolderListing.pictures(in: folder.path)
        #expect(pictures.count == PictureFiles.kept)
        #expect(pictures.first == folder.path + "/p\(PictureFiles.kept + 9).png" && pictures.last == folder.path + "/p10.png")
    }

    /// Every entry read counts, pictures or not, so a folder of many other files costs no more.
    @Test func onlySoManyEntriesAreRead() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        for number in 0..<10 {
            try Self.touch(folder.path + "/p\(number).png", modified: 1_000)
            try Self.touch(folder.path + "/n\(number).txt", modified: 1_000)
        }
        #expect(PicturesFolderListing.pictures(in: folder.path, entriesRead: 20).count == 10)
        #expect(PicturesFolderListing.pictures(in: folder.path, entriesRead: 4).count <= 4)
        let pictures = PicturesFolderListing.pictures(in: folder.path, entriesRead: 19)
        #expect((9...10).contains(pictures.count))
        #expect(PicturesFolderListing.pictures(in: folder.path, entriesRead: 0).isEmpty)
        #expect(PictureFiles.entriesRead == 2000)
    }

    @Test func theFolderIsTheOneXdgUserDirsNames() throws {
        let config = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { config.remove() }
        try FileDescriptor.replaceAtomically(config.path + "/user-dirs.dirs",
                                             with: Array("XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8))
        #expect(PicturesFolderListing.folder(environment: ["XDG_CONFIG_HOME": config.path, "HOME": "/home/ann"])
                == "/home/ann/Bilder")
        #expect(PicturesFolderListing.folder(environment: ["XDG_CONFIG_HOME": config.path + "/none", "HOME": "/home/ann"])
                == "/home/ann/Pictures")
    }
}
