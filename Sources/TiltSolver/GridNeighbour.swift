// SPDX-License-Identifier: GPL-3.0-or-later
/// The `k`th (0..<4: up, down, left, right) neighbour of `cell` on a `side`×`side`
/// grid, or -1 past its edge. (No array per call: the searches ask it for every node.)
@inline(__always)
func gridNeighbour(_ k: Int, of cell: Int, side: Int) -> Int {
    let (row, column) = (cell / side, cell % side)
    return switch k {
    case 0: row > 0 ? cell - side : -1
    case 1: row < side - 1 ? cell + side : -1
    case 2: column > 0 ? cell - 1 : -1
    default: column < side - 1 ? cell + 1 : -1
    }
}
