import TapTraceCore
import TapTraceJSON

/// A request after validation: the scene, the touch sequence as given and as it will be
/// dispatched (gestures expanded), and the request's knob overrides.
public struct DecodedRequest: Sendable {
    public var scene: Scene
    public var touches: TouchSequence
    public var records: [TouchRecord]
    public var knobs: KnobOverrides
}

/// Turns input documents (JSON bytes) into validated model values, reporting every issue with
/// its JSON pointer (brief: "all errors of a document are reported, not only the first").
public enum InputDecoder {
    public static func parse(_ bytes: [UInt8]) throws(InputError) -> JSONTape {
        do { return try JSONTape(parsing: bytes) } catch { throw .syntax(error) }
    }

    /// A scene document. `limits.views` bounds its views (`Limits`).
    public static func scene(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> Scene {
        let reader = DocumentReader(tape: try parse(bytes), limits: limits)
        let scene = reader.scene(at: 0, pointer: "")
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        return scene
    }

    /// A scene document, validated and indexed for dispatch (the id directory built once).
    public static func sceneIndex(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> SceneIndex {
        let reader = DocumentReader(tape: try parse(bytes), limits: limits)
        let scene = SceneDecoder(reader: reader).decode(0, at: "")
        if reader.checkViews(scene, at: "") {
            let (issues, directory) = SceneValidator.validateKeepingDirectory(scene)
            reader.issues.append(contentsOf: issues)
            if reader.issues.isEmpty { return SceneIndex(validated: scene, directory: directory) }
        }
        throw .invalid(ValidationFailure(reader.issues))
    }

    /// A touches document, expanded into the records to dispatch.
    public static func touches(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> (TouchSequence, [TouchRecord]) {
        let reader = DocumentReader(tape: try parse(bytes), limits: limits)
        let (seq, records) = reader.touchSequence(at: 0, pointer: "", requireFormat: true)
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        return (seq, records)
    }

    /// A dispatch request `{"scene": …, "touches": …, "knobs": …}` (contract §4), its scene's
    /// views and its touch records held to `limits`.
    public static func request(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> DecodedRequest {
        let reader = DocumentReader(tape: try parse(bytes), limits: limits)
        var parts = RequestParts(reader)
        let isObject = reader.object(0, at: { "" }) { (key: RequestKey, v) in parts.read(key, v) }
        let request = parts.finish(isObject: isObject)
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        return request
    }
}

/// The members of a dispatch request, read one at a time: by `request` and by requests that
/// carry more beside them (`whyRequest`).
struct RequestParts {
    let reader: DocumentReader
    private var scene = Scene()
    private var touches = TouchSequence()
    private var records: [TouchRecord] = []
    private var knobs = KnobOverrides()
    private var seenScene = false, seenTouches = false

    init(_ reader: DocumentReader) { self.reader = reader }

    mutating func read(_ key: RequestKey, _ v: Int) {
        let at = "/" + key.rawValue
        switch key {
        case .scene: seenScene = true; scene = reader.scene(at: v, pointer: at)
        case .touches: seenTouches = true; (touches, records) = reader.touchSequence(at: v, pointer: at)
        case .knobs: knobs = reader.knobs(at: v, pointer: at)
        }
    }

    /// The request; a missing scene or touches is an issue (when the body was an object at all).
    func finish(isObject: Bool) -> DecodedRequest {
        if isObject {
            if !seenScene { reader.report({ "/" + RequestKey.scene.rawValue }, "required: the scene document") }
            if !seenTouches { reader.report({ "/" + RequestKey.touches.rawValue }, "required: the touches document") }
        }
        return DecodedRequest(scene: scene, touches: touches, records: records, knobs: knobs)
    }
}

extension DocumentReader {
    /// Decodes and validates a scene at `node`; issues are recorded with pointers under `pointer`.
    public func scene(at node: Int, pointer: String) -> Scene {
        sceneKeepingDirectory(at: node, pointer: pointer).scene
    }

    /// The same, with the id directory the validation built (nil when it did not run), so that
    /// indexing the scene (`SceneIndex(validated:directory:)`) does not build it again.
    public func sceneKeepingDirectory(at node: Int, pointer: String) -> (scene: Scene, directory: ObjectDirectory?) {
        let before = issues.issues.count
        let scene = SceneDecoder(reader: self).decode(node, at: pointer)
        // A scene past the views limit is neither validated nor indexed.
        guard checkViews(scene, at: pointer) else { return (scene, nil) }
        // Semantic checks also run on a partly broken scene, but skip views whose ids are missing.
        guard issues.issues.count == before || !scene.windows.isEmpty else { return (scene, nil) }
        let (found, directory) = SceneValidator.validateKeepingDirectory(scene, at: pointer)
        issues.append(contentsOf: found)
        return (scene, directory)
    }

    /// Decodes a touches document and expands it into records. In a request body the endpoint
    /// implies the document, so `format` may be left out; a standalone document
    /// (`InputDecoder.touches`) passes `requireFormat`. When gestures name elements
    /// (`TouchSequence.hasElementTargets`) the records only check phases and times: dispatch
    /// them through `TapTrace.dispatch(_:touches:records:…)`, which resolves the elements.
    public func touchSequence(at node: Int, pointer: String, requireFormat: Bool = false) -> (TouchSequence, [TouchRecord]) {
        let seq = TouchesDecoder(reader: self, requireFormat: requireFormat).decode(node, at: pointer)
        // Counted before anything is expanded, over every sequence this reader reads.
        let (total, overflow) = recordCount.addingReportingOverflow(TouchSequenceValidator.recordCount(seq))
        recordCount = overflow ? .max : total
        if recordCount > maxRecords {
            issues.exceed(LimitExceeded(.records, maximum: maxRecords, size: recordCount, pointer: pointer))
            return (seq, [])
        }
        var list = IssueList()
        let records = TouchSequenceValidator.expand(seq, at: pointer, issues: &list)
        issues.append(contentsOf: list)
        return (seq, records)
    }

    /// Whether a decoded scene is within `Limits.views`; if not, the limit is recorded.
    /// Decoding is linear in the body, which the body limit bounds; validation and indexing,
    /// which cost more per view and keep memory, come after this check.
    public func checkViews(_ scene: Scene, at pointer: String) -> Bool {
        guard scene.views.count > maxViews else { return true }
        issues.exceed(LimitExceeded(.views, maximum: maxViews, size: scene.views.count, pointer: pointer))
        return false
    }

    public func knobs(at node: Int, pointer: String) -> KnobOverrides {
        KnobsDecoder.decode(node, at: pointer, reader: self)
    }
}
