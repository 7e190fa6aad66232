// SPDX-License-Identifier: GPL-3.0-or-later
/// Duplicate-path pruning for the sliding searches (docs/solver.md, "Duplicate paths").
///
/// Many different sequences of the empty cell's moves leave a board the same: round a
/// 2×2 block six steps one way or six the other. A depth-first search that never
/// steps straight back still walks each such board once per sequence. This automaton,
/// fed the empty cell's moves, refuses a move that completes a sequence with an
/// equivalent that is shorter, or as long and earlier in move order, so that of each
/// set of equivalent sequences (up to `maxLength` moves) only the first is searched.
///
/// Two sequences count as equivalent only when they leave every tile in the same
/// place *and* visit the same cells (relative to where the empty cell started): then
/// the edge of the board allows both or neither, so the one kept is always a legal
/// path where the one refused was. Every part of a kept sequence is itself a kept
/// sequence (replacing a part by its equivalent gives an equivalent whole that is
/// shorter or earlier), so a shortest solution always survives: the searches stay
/// optimal.
///
/// Moves are numbered as `gridNeighbour` numbers the empty cell's neighbours: 0 up,
/// 1 down, 2 left, 3 right; `k ^ 1` undoes `k`.
public struct MoveAutomaton: Sendable {
    /// Per state and move (state · 4 + move): the next state, or `refused`.
    let transitions: [Int32]
    /// The state before any move.
    static let start: Int32 = 0
    static let refused: Int32 = -1

    /// The longest sequences compared, in moves: 8 saves a quarter of the nodes in 359
    /// states (6 KiB) made in milliseconds; 10 saves a third, but its making leaves the
    /// daemon 6 MiB larger (docs/solver.md).
    public static let standardLength = 8

    public static let shared = MoveAutomaton(maxLength: standardLength)

    /// The number of states.
    public var stateCount: Int { transitions.count / 4 }
    /// Bytes the transitions take in memory.
    public var memoryBytes: Int { transitions.count * MemoryLayout<Int32>.size }

    /// The state after `move` from `state`, or nil if the move is refused.
    public func next(_ state: Int32, _ move: Int) -> Int32? {
        let next = transitions[Int(state) * 4 + move]
        return next == Self.refused ? nil : next
    }

    public init(maxLength: Int) {
        precondition(maxLength >= 1 && maxLength <= Result.longest, "sequences of 1 to \(Result.longest) moves")
        let refusedSequences = Self.refusedSequences(maxLength: maxLength)
        transitions = Self.automaton(refusing: refusedSequences)
    }

    /// A sequence of moves, two bits a move from the lowest, and its length.
    struct Sequence {
        var moves: UInt64
        var count: Int
        subscript(index: Int) -> Int { Int(truncatingIfNeeded: moves >> UInt64(2 * index)) & 3 }
        func appending(_ move: Int) -> Sequence { Sequence(moves: moves | UInt64(move) << UInt64(2 * count), count: count + 1) }
    }

    /// What a sequence leaves: the cells it visited, each with the tile it now holds,
    /// in ascending order, 20 bits each (three to a word). Flat: the generator's set is
    /// one block of memory, not one allocation per key.
    struct Result: Hashable {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// The most moves whose visited cells fit: one cell more than moves, 12 in all.
        static let longest = 11

        mutating func set(_ slot: Int, _ value: UInt64) {
            let shift = UInt64(20 * (slot % 3))
            switch slot / 3 {
            case 0: words.0 |= value << shift
            case 1: words.1 |= value << shift
            case 2: words.2 |= value << shift
            default: words.3 |= value << shift
            }
        }

        static func == (a: Result, b: Result) -> Bool { a.words == b.words }
        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// The sequences to refuse: each is a kept sequence and one more move, whose result
    /// (tiles and cells visited) an earlier sequence already reached.
    static func refusedSequences(maxLength: Int) -> [Sequence] {
        let width = 2 * maxLength + 1
        let centre = maxLength * width + maxLength
        let offsets = [-width, width, -1, 1]
        // The plane around the start: each cell's original cell (its tile), reset after use.
        var content = [Int32](0..<Int32(width * width))
        var visited: [Int] = []
        var isVisited = [Bool](repeating: false, count: width * width)
        var seen = Set<Result>()
        var refused: [Sequence] = []

        func result(_ sequence: Sequence) -> Result {
            var blank = centre
            visited.removeAll(keepingCapacity: true)
            visited.append(centre)
            isVisited[centre] = true
            for index in 0..<sequence.count {
                let target = blank + offsets[sequence[index]]
                content.swapAt(blank, target)
                blank = target
                if !isVisited[target] { isVisited[target] = true; visited.append(target) }
            }
            visited.sort()
            var key = Result()
            for (slot, cell) in visited.enumerated() { key.set(slot, UInt64(cell) << 10 | UInt64(content[cell])) }
            for cell in visited { content[cell] = Int32(cell); isVisited[cell] = false }
            return key
        }

        let empty = Sequence(moves: 0, count: 0)
        seen.insert(result(empty))
        var layer = [empty]
        for _ in 1...maxLength {
            var nextLayer: [Sequence] = []
            for sequence in layer {
                for move in 0..<4 {
                    if sequence.count > 0, move == sequence[sequence.count - 1] ^ 1 { continue }
                    let longer = sequence.appending(move)
                    if seen.insert(result(longer)).inserted {
                        nextLayer.append(longer)
                    } else {
                        refused.append(longer)
                    }
                }
            }
            layer = nextLayer
        }
        return refused
    }

    /// An Aho–Corasick automaton over the moves: its state is the longest end of the
    /// moves so far that begins a refused sequence, and a move that ends one is refused.
    static func automaton(refusing sequences: [Sequence]) -> [Int32] {
        // The trie of the refused sequences (four children a node, -1 for none), with a
        // mark on their last nodes.
        var child: [Int32] = [-1, -1, -1, -1]
        var ends: [Bool] = [false]
        for sequence in sequences {
            var node = 0
            for index in 0..<sequence.count {
                let move = sequence[index]
                if child[node * 4 + move] < 0 {
                    child[node * 4 + move] = Int32(ends.count)
                    child.append(contentsOf: [-1, -1, -1, -1])
                    ends.append(false)
                }
                node = Int(child[node * 4 + move])
            }
            ends[node] = true
        }
        // Breadth first: each node's fallback (the longest proper end of its moves in
        // the trie) and the full transitions; a node whose fallback ends a sequence
        // ends one too.
        var fallback = [Int32](repeating: 0, count: ends.count)
        var transitions = [Int32](repeating: 0, count: ends.count * 4)
        var queue: [Int] = [0]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if node != 0 && ends[Int(fallback[node])] { ends[node] = true }
            for move in 0..<4 {
                let next = child[node * 4 + move]
                if next >= 0 {
                    fallback[Int(next)] = node == 0 ? 0 : transitions[Int(fallback[node]) * 4 + move]
                    transitions[node * 4 + move] = next
                    queue.append(Int(next))
                } else {
                    transitions[node * 4 + move] = node == 0 ? 0 : transitions[Int(fallback[node]) * 4 + move]
                }
            }
        }
        // Refusing: any move into a node that ends a sequence.
        for index in transitions.indices where ends[Int(transitions[index])] { transitions[index] = refused }
        return transitions
    }
}
