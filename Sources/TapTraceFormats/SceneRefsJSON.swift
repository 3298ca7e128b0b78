import TapTraceCore
import TapTraceJSON

/// Every object of a scene that a trace can name, its `{"id":…,"class":…}` written once. A
/// service that dispatches against the same scene again and again keeps one beside the scene's
/// index and passes it to `ResultEncoder.encode(_:refs:)`: a result then copies the refs its
/// trace names instead of escaping them, a fifth of encoding a result. Without it, a result
/// escapes each object once and copies it from there (`TraceJSON`). Immutable once built.
public final class SceneRefsJSON: Sendable {
    /// The numbering the fragments follow: a trace recorded against another index (another
    /// numbering) is written without them.
    let objects: SceneObjects
    let json: JSONFragments

    public init(_ index: SceneIndex) {
        let objects = index.objects
        self.objects = objects
        json = JSONFragments(count: objects.count) { k, e in ResultJSON.ref(objects.ref(k), &e) }
    }
}
