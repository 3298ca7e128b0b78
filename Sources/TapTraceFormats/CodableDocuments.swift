import TapTraceCore
import TapTraceJSON

/// `Codable` for the contract's documents, so library users can use Swift's coders (issue 2,
/// item 2). Both directions go through the project's own JSON reader and writer, so a value
/// decoded this way passes exactly the validation of `taptrace dispatch` (every issue, with
/// its JSON pointer, in the thrown error), and encodes to the same bytes.
public struct DocumentDecodingError: Error, Sendable, CustomStringConvertible {
    public let error: InputError
    public var description: String { error.description }
}

private func bridgeDecode<T>(_ decoder: any Decoder, _ read: ([UInt8]) throws(InputError) -> T) throws -> T {
    let value = try JSONValue(from: decoder)
    var w = JSONWriter()
    value.write(to: &w)
    do throws(InputError) {
        return try read(w.bytes)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description,
                                                underlyingError: DocumentDecodingError(error: error)))
    }
}

private func bridgeEncode(_ bytes: [UInt8], to encoder: any Encoder) throws {
    let tape = try JSONTape(parsing: bytes)
    try JSONValue(tape: tape, node: tape.root).encode(to: encoder)
}

extension Scene: Codable {
    public init(from decoder: any Decoder) throws {
        self = try bridgeDecode(decoder) { (bytes) throws(InputError) in try InputDecoder.scene(bytes) }
    }
    public func encode(to encoder: any Encoder) throws { try bridgeEncode(SceneEncoder.encode(self), to: encoder) }
}

extension TouchSequence: Codable {
    public init(from decoder: any Decoder) throws {
        self = try bridgeDecode(decoder) { (bytes) throws(InputError) in try InputDecoder.touches(bytes).0 }
    }
    public func encode(to encoder: any Encoder) throws {
        var issues = IssueList()
        let records = TouchSequenceValidator.expand(self, issues: &issues)
        var w = JSONWriter()
        ResultEncoder.writeInput(records, until: until, to: &w)
        try bridgeEncode(w.bytes, to: encoder)
    }
}

extension DispatchResult: Encodable {
    public func encode(to encoder: any Encoder) throws { try bridgeEncode(ResultEncoder.encode(self), to: encoder) }
}
