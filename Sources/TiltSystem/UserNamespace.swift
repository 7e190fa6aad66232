// SPDX-License-Identifier: GPL-3.0-or-later
/// Which user and group ids this process's user namespace can name.
///
/// The kernel translates a socket peer's credentials (SO_PEERCRED) into the reader's
/// user namespace, and an id that has no mapping there arrives as the overflow id
/// (65534). Under systemd's `PrivateUsers=yes` only root and the service's own user
/// and group are mapped, so every other client would look like uid 65534: such an id
/// is not the client's, and must not be reported as if it were.
public struct UserNamespace: Sendable, Equatable {
    /// One line of `/proc/self/uid_map` or `gid_map`: ids `inside ..< inside + count`
    /// of this namespace are the parent's `outside ..< outside + count`.
    public struct Range: Sendable, Equatable {
        public var inside: UInt64
        public var count: UInt64

        public init(inside: UInt64, count: UInt64) {
            self.inside = inside
            self.count = count
        }
    }

    public var users: [Range]
    public var groups: [Range]

    public init(users: [Range], groups: [Range]) {
        self.users = users
        self.groups = groups
    }

    /// Parses an id map as the kernel writes it ("inside outside count" per line);
    /// nil if a line is not three numbers.
    public static func ranges(parsing text: String) -> [Range]? {
        var ranges: [Range] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 3, let inside = UInt64(fields[0]), UInt64(fields[1]) != nil,
                  let count = UInt64(fields[2]) else { return nil }
            ranges.append(Range(inside: inside, count: count))
        }
        return ranges
    }

    /// This process's namespace; the initial namespace's (everything mapped) when
    /// the maps cannot be read.
    public static let current: UserNamespace = {
        let everything = [Range(inside: 0, count: 1 << 32)]
        func read(_ path: String) -> [Range] {
            (try? FileDescriptor.readText(path)).flatMap(ranges(parsing:)) ?? everything
        }
        return UserNamespace(users: read("/proc/self/uid_map"), groups: read("/proc/self/gid_map"))
    }()

    public func mapsUser(_ uid: UInt32) -> Bool { Self.contains(users, uid) }
    public func mapsGroup(_ gid: UInt32) -> Bool { Self.contains(groups, gid) }

    private static func contains(_ ranges: [Range], _ id: UInt32) -> Bool {
        ranges.contains { UInt64(id) >= $0.inside && UInt64(id) - $0.inside < $0.count }
    }
}
