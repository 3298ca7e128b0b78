import Foundation
import Testing

@testable import TapTraceStore

struct ResultDigestMemoTests {
    private func document(_ text: String, padding: Int = 2_000) -> Data {
        Data((text + String(repeating: ".", count: padding)).utf8)
    }

    @Test("the same bytes again are not hashed again, and get the hash's value")
    func repeatedBytesReuseTheirDigest() {
        let memo = ResultDigestMemo(capacity: 4)
        let result = document("run")
        #expect(memo.digest(of: result) == ResultDigest.of(Array(result)))
        // An equal copy in storage of its own, as every request's result is.
        let again = Data(Array(result))
        #expect(memo.digest(of: again) == ResultDigest.of(Array(result)))
        #expect(memo.hashCount == 1)
    }

    @Test("bytes of the same length that differ anywhere get their own digest")
    func differentBytesAreHashed() {
        let memo = ResultDigestMemo(capacity: 4)
        let first = document("touch-1")
        var last = Array(first)
        last[last.count - 1] = UInt8(ascii: "!")
        let second = document("touch-2")
        for bytes in [first, Data(last), second] {
            #expect(memo.digest(of: bytes) == ResultDigest.of(Array(bytes)))
        }
        #expect(memo.hashCount == 3)
        #expect(memo.digest(of: Data()) == ResultDigest.of([UInt8]()))
    }

    @Test("the least recently used result is forgotten beyond the capacity")
    func leastRecentIsForgotten() {
        let memo = ResultDigestMemo(capacity: 2)
        let a = document("a"), b = document("b"), c = document("c")
        _ = memo.digest(of: a)
        _ = memo.digest(of: b)
        _ = memo.digest(of: a)  // a is the most recent again
        _ = memo.digest(of: c)  // b goes
        #expect(memo.hashCount == 3)
        _ = memo.digest(of: a)
        #expect(memo.hashCount == 3)
        #expect(memo.digest(of: b) == ResultDigest.of(Array(b)))
        #expect(memo.hashCount == 4)
    }

    @Test("results over the size limit are hashed every time, never kept")
    func largeResultsAreNotKept() {
        let memo = ResultDigestMemo(capacity: 4)
        let large = document("big", padding: ResultDigestMemo.maxBytes)
        let small = document("small")
        _ = memo.digest(of: small)
        #expect(memo.digest(of: large) == ResultDigest.of(Array(large)))
        #expect(memo.digest(of: large) == ResultDigest.of(Array(large)))
        #expect(memo.hashCount == 3)
        _ = memo.digest(of: small)  // still there: the large one took no room
        #expect(memo.hashCount == 3)
    }

    @Test("threads asking at once all get the hash's value")
    func concurrentCallers() async {
        let memo = ResultDigestMemo(capacity: 4)
        let documents = (0..<6).map { document("doc-\($0)", padding: 20_000) }
        await withTaskGroup(of: Bool.self) { group in
            for k in 0..<200 {
                let bytes = documents[k % documents.count]
                group.addTask { memo.digest(of: bytes) == ResultDigest.of(Array(bytes)) }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
