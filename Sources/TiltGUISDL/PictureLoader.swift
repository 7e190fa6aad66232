// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUI
import TiltSystem

/// Reads and decodes pictures on a thread of its own (docs/gui.md, Pictures): a photo
/// takes a moment to decode, and the frame loop never waits for it. Each request gets
/// an id; the loop keeps only the answer to the last one it asked for the board.
final class PictureLoader {
    struct Request: Sendable {
        var id: Int
        var source: PictureChoice
        /// The square's side in pixels: the size it is drawn at.
        var side: Int
    }

    struct Answer: Sendable {
        var id: Int
        var source: PictureChoice
        var picture: Result<SquarePicture, PictureHeader.Refusal>
    }

    private let requests: HandOff<Request>
    private let answers: HandOff<Answer>
    private let worker: WorkerThread
    private var nextID = 0

    /// `wake` is called on the loader's thread when an answer is ready.
    init(wake: @escaping @Sendable () -> Void) throws(Errno) {
        let requests = try HandOff<Request>()
        let answers = try HandOff<Answer>()
        self.requests = requests
        self.answers = answers
        worker = try WorkerThread { stop in
            while let ready = try? Poll.wait([(stop.descriptor, .readable), (requests.ready.descriptor, .readable)], timeout: nil),
                  ready[0].isEmpty {
                for request in requests.take() where !stop.isRequested {
                    answers.post(Answer(id: request.id, source: request.source,
                                        picture: Self.load(request.source, side: request.side)))
                    wake()
                }
            }
        }
    }

    /// Asks for `source` at `side` pixels; the answer carries the id returned.
    func load(_ source: PictureChoice, side: Int) -> Int {
        nextID += 1
        requests.post(Request(id: nextID, source: source, side: max(16, side)))
        return nextID
    }

    /// The answers ready so far.
    func take() -> [Answer] { answers.take() }

    func stop() {
        worker.stop()
        requests.close()
        answers.close()
    }

    /// The picture `source` names, decoded: any failure is a refusal that says why in a player's words.
    static func load(_ source: PictureChoice, side: Int) -> Result<SquarePicture, PictureHeader.Refusal> {
        do throws(PictureHeader.Refusal) {
            let bytes = try self.bytes(of: source)
            let header = try PictureHeader(bytes)
            return .success(try ImageFile.square(bytes, header: header, side: side))
        } catch {
            return .failure(error)
        }
    }

    private static func bytes(of source: PictureChoice) throws(PictureHeader.Refusal) -> [UInt8] {
        switch source {
        case .numbers: throw PictureHeader.Refusal(L("numbers are not a picture"))
        case .builtIn(let name):
            guard let picture = BuiltInPictures.named(name) else { throw PictureHeader.Refusal(L("there is no built-in picture '{0}'", name)) }
            return Array(picture.svg.utf8)
        case .file(let path):
            // Only a regular file is read: a pipe or a device could make the reader wait forever.
            switch Result(catching: { () throws(Errno) in try FileKind(path: path) }) {
            case .success(.regular): break
            case .success(.directory): throw PictureHeader.Refusal(L("it is a folder, not a picture"))
            case .success(.socket): throw PictureHeader.Refusal(L("it is a socket, not a picture"))
            case .success(_): throw PictureHeader.Refusal(L("it is a special file, not a picture"))
            case .failure(let error): throw refusal(error)
            }
            do throws(Errno) {
                return try FileDescriptor.readAll(path, limit: PictureHeader.maximumFileBytes)
            } catch {
                throw refusal(error)
            }
        }
    }

    /// Why a file could not be read, in a player's words.
    private static func refusal(_ error: Errno) -> PictureHeader.Refusal {
        switch error {
        case .noSuchFile: PictureHeader.Refusal(L("there is no such file"))
        case .permissionDenied: PictureHeader.Refusal(L("it may not be read (permission denied)"))
        case .fileTooLarge: PictureHeader.Refusal(L("it is larger than {0} MiB", PictureHeader.maximumFileBytes >> 20))
        default: PictureHeader.Refusal(L("it cannot be read ({0})", error))
        }
    }
}
