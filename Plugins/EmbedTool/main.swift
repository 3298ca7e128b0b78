import Foundation

// taptrace-embed OUTPUT TYPE FILE…
//
// Writes OUTPUT, a Swift file declaring `enum TYPE` whose `files` are the FILEs' names and
// texts, in the order given. Run by the EmbedFiles build plugin, never by hand.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: taptrace-embed OUTPUT TYPE FILE…\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let type = arguments[arguments.startIndex + 1]
do {
    var files: [(name: String, text: String)] = []
    for path in arguments.dropFirst(2) {
        let url = URL(fileURLWithPath: path)
        let bytes = try Data(contentsOf: url)
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw EmbedError("\(path) is not UTF-8 text")
        }
        files.append((url.lastPathComponent, text))
    }
    let source = try EmbeddedSource.render(type: type, files: files)
    // Written only when it changes, so that a build with nothing new compiles nothing again.
    if (try? String(contentsOf: output, encoding: .utf8)) != source {
        try source.write(to: output, atomically: true, encoding: .utf8)
    }
} catch {
    FileHandle.standardError.write(Data("taptrace-embed: \(error)\n".utf8))
    exit(1)
}
