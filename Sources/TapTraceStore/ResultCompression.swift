import CZstd
import Foundation

/// How `run_results.bytes` holds a result document (`encoding`, migration 0002).
///
/// Results are compressed with Zstandard at level 1: a 20 KB trace becomes about 3 KB
/// (docs/performance.md) for some 25 µs, and what is written, logged to the WAL and
/// checkpointed shrinks as much. Results that would not shrink by a tenth (small ones) are
/// kept as they are. Decompression is a function of the stored bytes alone, so two equal
/// compressed values always hold equal documents: the store may compare compressed bytes.
package enum ResultCompression {
    package static let identity = "identity"
    static let zstd = "zstd"
    static let level: Int32 = 1

    /// The stored form of `document`: its encoding and bytes.
    package static func encode(_ document: Data) -> (encoding: String, bytes: Data) {
        guard document.count >= 256 else { return (identity, document) }
        let bound = ZSTD_compressBound(document.count)
        var output = Data(count: bound)
        let written = output.withUnsafeMutableBytes { out in
            document.withUnsafeBytes { input in
                ZSTD_compress(out.baseAddress, bound, input.baseAddress, input.count, level)
            }
        }
        guard ZSTD_isError(written) == 0, written < document.count - document.count / 10 else {
            return (identity, document)
        }
        output.count = written
        return (zstd, output)
    }

    /// The document of a stored result.
    package static func decode(encoding: String, bytes: Data) throws -> Data {
        switch encoding {
        case identity:
            return bytes
        case zstd:
            let size = bytes.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
            // A frame written by `encode` always records its size; anything else is damage.
            guard size != ZSTD_CONTENTSIZE_UNKNOWN, size != ZSTD_CONTENTSIZE_ERROR, size <= UInt64(Int32.max) else {
                throw StoreError.database("a stored result is not a complete zstd frame")
            }
            var document = Data(count: Int(size))
            let read = document.withUnsafeMutableBytes { out in
                bytes.withUnsafeBytes { input in
                    ZSTD_decompress(out.baseAddress, out.count, input.baseAddress, input.count)
                }
            }
            guard ZSTD_isError(read) == 0, read == Int(size) else {
                throw StoreError.database("a stored result does not decompress")
            }
            return document
        default:
            throw StoreError.database("a stored result has the unknown encoding \(encoding)")
        }
    }
}
