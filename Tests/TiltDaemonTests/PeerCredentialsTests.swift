// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem

/// A client's ids in the log: under `PrivateUsers=yes` the kernel reports every id the
/// service's namespace does not map as 65534, which is nobody's id, so it is not logged.
@Suite struct PeerCredentialsTests {
    static let initial = "         0          0 4294967295\n"
    /// What systemd writes for PrivateUsers=yes: root and the service's user.
    static let privateUsers = "         0          0          1\n       999        999          1\n"

    static func namespace(_ map: String) throws -> UserNamespace {
        let ranges = try #require(UserNamespace.ranges(parsing: map))
        return UserNamespace(users: ranges, groups: ranges)
    }

    @Test func theInitialNamespaceNamesEveryone() throws {
        let credentials = UnixSocket.Credentials(pid: 42, uid: 1000, gid: 65534)
        #expect(credentials.describe(in: try Self.namespace(Self.initial)) == "pid=42 uid=1000 gid=65534")
    }

    @Test func anUnmappedIdIsNotPassedOffAsTheClients() throws {
        let namespace = try Self.namespace(Self.privateUsers)
        // A stranger (uid 1000) arrives as the overflow id.
        #expect(UnixSocket.Credentials(pid: 7, uid: 65534, gid: 65534).describe(in: namespace)
                == "pid=7 (uid and gid not visible in the service's user namespace)")
        #expect(UnixSocket.Credentials(pid: 7, uid: 65534, gid: 999).describe(in: namespace)
                == "pid=7 gid=999 (uid not visible in the service's user namespace)")
        #expect(UnixSocket.Credentials(pid: 8, uid: 0, gid: 0).describe(in: namespace) == "pid=8 uid=0 gid=0")
        #expect(UnixSocket.Credentials(pid: 9, uid: 999, gid: 999).describe(in: namespace) == "pid=9 uid=999 gid=999")
    }

    @Test func mapsAreParsedStrictly() {
        #expect(UserNamespace.ranges(parsing: "0 0\n") == nil)
        #expect(UserNamespace.ranges(parsing: "0 x 1\n") == nil)
        #expect(UserNamespace.ranges(parsing: "5 1005 10\n") == [UserNamespace.Range(inside: 5, count: 10)])
    }
}
