#if canImport(Glibc)
import Glibc
#endif

/// Asks fontconfig (`fc-match`) for a bold sans font file: the fallback when no
/// known path exists. nil when fc-match is missing or says nothing useful.
enum FontConfig {
    static func boldSans() -> String? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // Only the child's standard output (a dup2 copy) may stay open in it.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let arguments = ["fc-match", "-f", "%{file}", "sans:bold"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawnp(&pid, "fc-match", &actions, nil, &argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard status == 0 else { return nil }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count > 0 { output += chunk[..<count] } else if count == 0 || errno != EINTR { break }
        }
        var exitStatus: Int32 = 0
        waitpid(pid, &exitStatus, 0)
        let path = String(decoding: output, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }
}
