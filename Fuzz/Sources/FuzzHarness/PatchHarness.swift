import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// `PATCH /v1/scenes/{id}` (RFC 6902): the input is one JSON array `[document, patch]`. The
/// patch is read (`JSONPatch(tape:node:)`) and applied to the document both ways the library
/// offers (to a `JSONValue` and to a tape), which must agree; the patched document is read as a
/// scene, as the route does. Any JSON input also checks the writer: a document read and written
/// again reads back as the same value.
public enum PatchHarness {
    public static func run(_ bytes: [UInt8]) -> Int32 {
        guard let tape = try? JSONTape(parsing: bytes) else { return FuzzVerdict.ran }
        checkWriter(tape)

        guard tape.kind(tape.root) == .array, tape.count(tape.root) == 2 else { return FuzzVerdict.ran }
        let parts = Array(tape.elements(tape.root))
        let (documentNode, patchNode) = (parts[0], parts[1])
        let patch: JSONPatch
        do throws(JSONPatchError) {
            patch = try JSONPatch(tape: tape, node: patchNode)
        } catch {
            Check.isJSON(Problem(kind: .validation, title: "JSON Patch not applied", detail: error.description).json(status: 422),
                         "the problem document of \(error)")
            return FuzzVerdict.ran
        }
        let fromTape: [UInt8]
        do throws(JSONPatchError) {
            fromTape = try patch.apply(to: tape, node: documentNode)
        } catch {
            // The same patch on the same document as a value fails at the same operation.
            do throws(JSONPatchError) {
                var value = try patch.apply(to: JSONValue(anyDepth: tape, node: documentNode))
                _ = JSONValue.dismantle(&value)
                Check.that(false, "a patch failed on a tape (\(error)) but not on the same value")
            } catch let other {
                Check.that(other.operation == error.operation && other.reason == error.reason,
                           "a patch failed differently on a tape (\(error)) and on a value (\(other))")
            }
            return FuzzVerdict.ran
        }
        Check.isJSON(fromTape, "the patched document")
        do throws(JSONPatchError) {
            let value = try patch.apply(to: JSONValue(anyDepth: tape, node: documentNode))
            Check.that(written(value) == fromTape, "a patch applied to a tape and to a value gave different documents")
        } catch {
            Check.that(false, "a patch applied to a tape failed on the same value: \(error)")
        }

        do throws(InputError) {
            SceneHarness.roundTrip(try InputDecoder.scene(fromTape))
        } catch {
            Problems.check(error, input: fromTape)
        }
        return FuzzVerdict.ran
    }

    /// The document read into a `JSONValue` and written by `JSONWriter` parses, and reads back as
    /// a value that writes the same bytes. Values are dismantled level by level
    /// (`JSONValue.dismantle`): released as they are, a deeply nested one would recurse as deep.
    static func checkWriter(_ tape: JSONTape) {
        let written = written(JSONValue(anyDepth: tape))
        guard let rewritten = try? JSONTape(parsing: written) else {
            Check.that(false, "JSONWriter wrote a document that does not parse")
            return
        }
        Check.that(self.written(JSONValue(anyDepth: rewritten)) == written,
                   "a document written by JSONWriter, read and written again, gave other bytes")
    }

    static func written(_ value: consuming JSONValue) -> [UInt8] {
        var value = value
        var w = JSONWriter()
        value.writeAnyDepth(to: &w)
        _ = JSONValue.dismantle(&value)
        return w.bytes
    }
}
