// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Collects named figures, prints them as a table and writes them as JSON.
final class Report {
    private(set) var figures: [(name: String, value: Double, unit: String)] = []

    func add(_ name: String, _ value: Double, _ unit: String) {
        figures.append((name, value, unit))
        print(name.padding(toLength: 44, withPad: " ", startingAt: 0),
              String(format: "%14.3f", value), unit)
    }

    func write(to path: String) {
        var object: [String: Any] = [:]
        for figure in figures { object[figure.name] = ["value": figure.value, "unit": figure.unit] }
        object["machine"] = Self.machine
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]) {
            try? data.write(to: URL(fileURLWithPath: path))
            print("wrote \(path)")
        }
    }

    static var machine: String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "?"
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The q-quantile of sorted values.
func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
}
