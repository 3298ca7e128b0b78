import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// A scene document (`PUT /v1/scenes/{id}`, `taptrace hit-test`): decoded, validated and indexed
/// (`InputDecoder.sceneIndex`); then what is asked of a stored scene without touches: hit-tests
/// and explanations at a few points, the screen layout, the tappability audit. A valid scene
/// also goes through `SceneEncoder` and back, which must give the same scene and the same bytes.
public enum SceneHarness {
    /// How many views get a hit-test and an explanation at their centre.
    static let viewsAsked = 4

    public static func run(_ bytes: [UInt8]) -> Int32 {
        let index: SceneIndex
        do throws(InputError) {
            index = try InputDecoder.sceneIndex(bytes)
        } catch {
            Problems.check(error, input: bytes)
            return FuzzVerdict.ran
        }

        let layout = ScreenLayout(index)
        Check.isJSON(layout.json(), "the geometry document")

        var points = [Point(0, 0), Point(195, 422), Point(-1, -1)]
        var asked: [(view: Int, point: Point)] = []
        for placement in layout.placements.prefix(viewsAsked) {
            guard let quad = placement.quad, quad.count == 4 else { continue }
            let centre = Point((quad[0].x + quad[2].x) / 2, (quad[0].y + quad[2].y) / 2)
            points.append(centre)
            asked.append((placement.view, centre))
        }
        for p in points {
            Check.isJSON(HitTestReport.run(index, point: p).json(), "the hit-test report at \(p)")
        }
        for (v, p) in asked {
            // Every view of the scene can be asked about (an unknown id is the only refusal).
            do throws(ValidationIssue) {
                let explanation = try Explainer.explain(index, point: p, target: index.view(v).id)
                Check.isJSON(explanation.json(), "the explanation of \(index.view(v).id)")
            } catch {
                Check.that(false, "explaining view \(index.view(v).id) of the scene was refused: \(error.message)")
            }
        }
        let audit = TappabilityAudit.run(index)
        Check.isJSON(audit.json(), "the audit document")
        _ = audit.text()

        roundTrip(index.scene)
        return FuzzVerdict.ran
    }

    /// A scene written by `SceneEncoder` reads back as the same scene, and writing that gives
    /// the same bytes (imports and the service store what the encoder writes).
    static func roundTrip(_ scene: Scene) {
        let written = SceneEncoder.encode(scene)
        let reread: Scene
        do throws(InputError) {
            reread = try InputDecoder.scene(written)
        } catch {
            Check.that(false, "a valid scene, written by SceneEncoder, was refused: \(error)")
            return
        }
        Check.that(reread == scene, "a scene written by SceneEncoder reads back different")
        Check.that(SceneEncoder.encode(reread) == written, "SceneEncoder wrote the same scene in two ways")
    }
}
