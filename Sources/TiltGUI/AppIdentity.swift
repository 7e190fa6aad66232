// SPDX-License-Identifier: GPL-3.0-or-later
/// The graphical board's name on the desktop. The desktop entry, the icon and the
/// AppStream metainfo in `desktop/` are named by it, and the window gives it as its
/// Wayland app id and X11 class, so the shell matches the running window to its entry
/// and shows its icon (docs/gui.md, On the desktop).
public enum AppIdentity {
    public static let id = "org.tiltpuzzle.TiltPuzzle"
}
