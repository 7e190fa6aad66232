// SPDX-License-Identifier: GPL-3.0-or-later
/// Threads a search may split its work over (docs/solver.md, "Two cores"). TiltSolver
/// starts no thread of its own: the caller lends them. `run(body)` calls `body(k)`
/// once for each k in 0..<size, all at the same time, each on a thread of its own
/// (0 on the caller's), and returns once every call has returned.
public struct SearchTeam {
    /// The threads `run` uses, the caller's included.
    public let size: Int
    let run: (_ body: (Int) -> Void) -> Void

    public init(size: Int, run: @escaping (_ body: (Int) -> Void) -> Void) {
        precondition(size >= 1, "a team has at least the caller's thread")
        self.size = size
        self.run = run
    }

    /// The caller's thread alone: nothing is split.
    public static var alone: SearchTeam { SearchTeam(size: 1) { body in body(0) } }
}
