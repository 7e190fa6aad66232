// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUISDL
#if canImport(Glibc)
import Glibc
#endif

// The program behind `tiltpuzzle gui`, separate so the other commands never load SDL.
exit(GUIMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
