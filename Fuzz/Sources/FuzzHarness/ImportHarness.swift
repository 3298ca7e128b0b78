import TapTraceCore
import TapTraceFormats
import TapTraceImport
import TapTraceJSON

/// `taptrace import <format>` and `POST /v1/import/<format>`: the dump imported with each kind
/// of ids. An import either refuses the dump at a line and column inside it, or gives a scene
/// that the scene decoder accepts as it is written (the importer validates what it builds).
/// Format detection (`POST /v1/import`, `import auto`) reads the same bytes first.
public enum ImportHarness {
    public static func run(_ format: ImportFormat, _ bytes: [UInt8]) -> Int32 {
        _ = try? ImportFormat.detect(bytes)
        for ids in ImportOptions.Identity.allCases {
            let result: ImportResult
            do throws(ImportError) {
                result = try format.parse(bytes, ImportOptions(ids: ids))
            } catch {
                Check.isPosition(line: error.line, column: error.column, in: bytes, "an import error (\(error))")
                Check.isJSON(error.problem.json(status: 422), "the problem document of \(error)")
                return FuzzVerdict.ran
            }
            let json = result.json()
            Check.isJSON(json, "the import result")
            let sceneJSON = result.sceneJSON()
            do throws(InputError) {
                let index = try InputDecoder.sceneIndex(sceneJSON)
                Check.that(index.scene == result.scene, "an imported scene reads back different")
            } catch {
                Check.that(false, "an imported scene (ids \(ids.rawValue)) was refused by the scene decoder: \(error)")
            }
            Check.that((try? format.parse(bytes, ImportOptions(ids: ids)))?.json() == json,
                       "importing the same dump twice gave different documents")
        }
        return FuzzVerdict.ran
    }
}
