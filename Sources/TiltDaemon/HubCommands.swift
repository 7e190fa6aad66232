// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// What each request does: decoding a line, running the command, echoing its id
/// (docs/protocol.md, "Commands").
extension Hub {
    func handle(_ line: UnsafeBufferPointer<UInt8>, from session: Session) {
        // A blank line is no request, and gets no answer (docs/protocol.md, "Lines").
        if line.allSatisfy(JSONParser.isWhitespace) { return }
        let request: ClientRequest
        do throws(ClientRequest.Rejection) {
            request = try ClientRequest.decode(line)
        } catch {
            session.enqueueReply(.error(id: echoable(error.id), code: error.code, message: error.message), after: 0)
            return
        }
        let id = request.id
        if id != nil, echoable(id) == nil {
            session.enqueueReply(.error(id: nil, code: .badArgument,
                                        message: "\"id\" may be at most \(Self.maxIDLength) bytes of JSON"), after: 0)
            return
        }
        run(request, from: session)
    }

    /// The id as it can be echoed: nil when absent or too long to echo.
    func echoable(_ id: JSONValue?) -> JSONValue? {
        guard let id else { return nil }
        return id.encoded.count <= Self.maxIDLength ? id : nil
    }

    func run(_ request: ClientRequest, from session: Session) {
        let now = clock()
        let id = request.id
        let name = request.command.name
        let generationBefore = game.generation
        var moved: Int?
        func badArgument(_ message: String) {
            session.enqueueReply(.error(id: id, code: .badArgument, message: message), after: 0)
        }
        switch request.command {
        case .state:
            session.enqueue(.currentState, after: 0)
        case .sensor:
            session.enqueue(.currentSensor, after: 0)
        case .tilt(let direction):
            moved = perform(.tilt(direction), now: now)
        case .move(let index, let direction):
            guard index < game.puzzle.board.count else {
                return badArgument(Refusal.cellOutsideBoard(index, side: game.puzzle.side).english)
            }
            moved = perform(.move(index: index, direction: direction), now: now)
        case .slide(let index):
            guard index < game.puzzle.board.count else {
                return badArgument(Refusal.cellOutsideBoard(index, side: game.puzzle.side).english)
            }
            moved = perform(.slide(index: index), now: now)
        case .undo:
            moved = perform(.undo, now: now)
        case .redo:
            moved = perform(.redo, now: now)
        case .new(let size, let seed, let shuffle, let board):
            let seed = shuffle && board == nil ? (seed ?? UInt64.random(in: .min ... .max)) : nil
            broadcast(game.newGame(size: size ?? game.puzzle.side, seed: seed, board: board, at: now))
        case .calibrate:
            guard game.calibrate() else {
                session.enqueueReply(.error(id: id, code: .noSensor,
                                            message: Refusal.noSensor.english), after: 0)
                return
            }
            broadcast(.calibrated(auto: false))
        case .configure(let trigger, let release):
            let current = game.currentSensitivity
            let wanted = Sensitivity(trigger: trigger ?? current.trigger, release: release ?? current.release)
            if let problem = wanted.problem { return badArgument(problem.description) }
            // Every configure is answered with the angles in effect, to every client,
            // also when it changed nothing (docs/protocol.md, `settings`).
            if game.configure(wanted) { posePending = !poseStreams.isEmpty }
            broadcast(.settings(game.currentSensitivity))
        case .screen(let rotation):
            guard let rotation else {
                session.enqueue(.currentScreen, after: 0)
                break
            }
            // Told to everyone only when it changes; the pose gauge's frame turns with it.
            if game.turnScreen(rotation) {
                posePending = !poseStreams.isEmpty
                broadcast(.screen(rotation))
            }
        case .subscribe(let samples, let pose):
            if let samples {
                if samples != session.wantsSamples { samplesSubscribers += samples ? 1 : -1 }
                session.wantsSamples = samples
            }
            if let pose {
                if !pose {
                    poseStreams[session.id] = nil
                } else if poseStreams[session.id] == nil {
                    // The current pose, if any, follows the reply.
                    poseStreams[session.id] = PoseThrottle()
                    posePending = true
                }
            }
        case .hint:
            let board = game.puzzle.board
            if board.isSolved {
                session.enqueueReply(.hint(id: id, hint: Hint(solution: [], optimal: true, revision: game.revision)), after: 0)
                return
            }
            // Computed off the loop on the board as it is now; the reply (and this
            // client's later ones) wait for it, nothing else does.
            let ticket = nextHintTicket
            nextHintTicket += 1
            hintOwners[ticket] = session.id
            session.enqueue(.hint(id: id, ticket: ticket), after: 0)
            delegate.requestHint(HintJob(ticket: ticket, board: board, revision: game.revision))
            return
        }
        // A request that changed the game is answered once the change is on disk.
        let changed = game.generation != generationBefore
        session.enqueueReply(.reply(id: id, command: name, moved: moved), after: changed ? game.generation : 0)
    }

    func perform(_ action: Game.ActionKind, now: Double) -> Int {
        let events = game.perform(action, at: now)
        events.forEach(broadcast)
        return events.reduce(0) { count, event in if case .move = event { count + 1 } else { count } }
    }
}
