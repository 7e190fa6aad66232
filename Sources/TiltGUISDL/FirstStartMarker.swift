// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUI
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The file that says the first-start card was seen (FirstStart.markerPath).
struct FirstStartMarker {
    let path: String?

    var exists: Bool { path.map { access($0, F_OK) == 0 } ?? true }

    /// Creates the file and the folders above it. Failing only means the card shows again next time.
    func remember() {
        guard let path else { return }
        PrivateFolders.create(above: path)
        try? FileDescriptor.replaceAtomically(path, with: [], permissions: 0o600)
    }
}
