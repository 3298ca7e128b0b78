import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// The bodies of the scene-bound endpoints, decoded with `DocumentReader` so every issue comes
/// back with its JSON pointer (422), like the engine's own documents. Unknown keys are errors
/// (contract: "a typo must not be silently ignored").

/// `POST /v1/scenes/{id}/dispatch`: `{"touches": …, "knobs": …, "version": N}`.
struct StoredDispatchBody {
    var touches: TouchSequence
    var records: [TouchRecord]
    var knobs: KnobOverrides
    var version: Int?
    /// The harness's name for the run (a test's name): 1 to 200 characters.
    var label: String?
    /// What the run stores as its request: `{"touches": …, "knobs": …}` as the client wrote them.
    var storedRequest: [UInt8]

    /// `limits.records` bounds the touches' records.
    init(_ tape: JSONTape, limits: Limits = .unlimited) throws(Problem) {
        let reader = DocumentReader(tape: tape, limits: limits)
        var touches = TouchSequence(), records: [TouchRecord] = [], knobs = KnobOverrides(), version: Int?
        var label: String?
        var touchesNode: Int?, knobsNode: Int?
        reader.object(tape.root, at: { "" }) { (key: StoredDispatchKey, v) in
            let at = "/" + key.rawValue
            switch key {
            case .touches: touchesNode = v; (touches, records) = reader.touchSequence(at: v, pointer: at)
            case .knobs: knobsNode = v; knobs = reader.knobs(at: v, pointer: at)
            case .version: version = reader.integer(v, at: { at }, minimum: 1)
            case .label:
                label = reader.string(v, at: { at })
                if let text = label, text.count > 200 { reader.report({ at }, "a label is at most 200 characters"); label = nil }
            }
        }
        if tape.kind(tape.root) == .object, touchesNode == nil {
            reader.report({ "/touches" }, "required: the touches document")
        }
        guard reader.issues.isEmpty, let touchesNode else { throw Problem(.invalid(ValidationFailure(reader.issues))) }
        self.touches = touches
        self.records = records
        self.knobs = knobs
        self.version = version
        self.label = label
        self.storedRequest = Self.request(tape, touches: touchesNode, knobs: knobsNode)
    }

    static func request(_ tape: JSONTape, touches: Int, knobs: Int?) -> [UInt8] {
        var out: [UInt8] = Array("{\"touches\":".utf8)
        out += tape.rawBytes(touches)
        if let knobs {
            out += Array(",\"knobs\":".utf8)
            out += tape.rawBytes(knobs)
        }
        out.append(0x7D)
        return out
    }
}

/// A stored run's request read back for replay: the touches and knobs it was dispatched with.
struct StoredRequest {
    var touches: TouchSequence
    var records: [TouchRecord]
    var knobs: KnobOverrides

    /// `limits.records` bounds the touches' records: a run stored under a higher limit (or
    /// none) is not dispatched again past the current one.
    init(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) {
        let reader = DocumentReader(tape: try InputDecoder.parse(bytes), limits: limits)
        var touches = TouchSequence(), records: [TouchRecord] = [], knobs = KnobOverrides()
        reader.object(reader.tape.root, at: { "" }) { (key: StoredRequestKey, v) in
            let at = "/" + key.rawValue
            switch key {
            case .touches: (touches, records) = reader.touchSequence(at: v, pointer: at)
            case .knobs: knobs = reader.knobs(at: v, pointer: at)
            }
        }
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        self.touches = touches
        self.records = records
        self.knobs = knobs
    }

}

/// `POST /v1/scenes/{id}/hit-test` and `/explain`: `{"point": [x, y], "target"?, "version"?, "knobs"?}`.
struct PointQueryBody {
    var point: Point
    var target: String?
    var version: Int?
    var knobs: KnobOverrides

    init(_ tape: JSONTape, requiresTarget: Bool) throws(Problem) {
        let reader = DocumentReader(tape: tape)
        var point: Point?, target: String?, version: Int?, knobs = KnobOverrides()
        var seenPoint = false, seenTarget = false
        // Explain names a target; a hit-test has none (and refuses one as an unknown key).
        func read(_ key: ExplainQueryKey, _ v: Int) {
            let at = "/" + key.rawValue
            switch key {
            case .point: seenPoint = true; point = reader.point(v, at: { at })
            case .target: seenTarget = true; target = reader.string(v, at: { at })
            case .version: version = reader.integer(v, at: { at }, minimum: 1)
            case .knobs: knobs = reader.knobs(at: v, pointer: at)
            }
        }
        if requiresTarget {
            reader.object(tape.root, at: { "" }) { (key: ExplainQueryKey, v) in read(key, v) }
        } else {
            reader.object(tape.root, at: { "" }) { (key: HitTestQueryKey, v) in read(ExplainQueryKey(rawValue: key.rawValue)!, v) }
        }
        if tape.kind(tape.root) == .object {
            if !seenPoint { reader.report({ "/" + ExplainQueryKey.point.rawValue }, "required: the screen point [x, y]") }
            if requiresTarget, !seenTarget {
                reader.report({ "/" + ExplainQueryKey.target.rawValue }, "required: a view or recognizer id")
            }
        }
        guard reader.issues.isEmpty, let point else { throw Problem(.invalid(ValidationFailure(reader.issues))) }
        self.point = point
        self.target = target
        self.version = version
        self.knobs = knobs
    }
}

/// `POST /v1/scenes/{id}/replay`: `{"from": N, "to": M}`.
struct ReplayBody {
    var from: Int
    var to: Int

    init(_ tape: JSONTape) throws(Problem) {
        let reader = DocumentReader(tape: tape)
        var from: Int?, to: Int?
        var seenFrom = false, seenTo = false
        reader.object(tape.root, at: { "" }) { (key: ReplayKey, v) in
            let at = "/" + key.rawValue
            switch key {
            case .from: seenFrom = true; from = reader.integer(v, at: { at }, minimum: 1)
            case .to: seenTo = true; to = reader.integer(v, at: { at }, minimum: 1)
            }
        }
        if tape.kind(tape.root) == .object {
            if !seenFrom { reader.report({ "/" + ReplayKey.from.rawValue }, "required: the version whose runs are replayed") }
            if !seenTo { reader.report({ "/" + ReplayKey.to.rawValue }, "required: the version they are replayed against") }
        }
        guard reader.issues.isEmpty, let from, let to else { throw Problem(.invalid(ValidationFailure(reader.issues))) }
        self.from = from
        self.to = to
    }
}

/// `POST /v1/dispatch`: `{"scene", "touches", "knobs"}` (contract §4), decoded as
/// `InputDecoder.request` does (same issues, same pointers), except that a scene whose exact
/// bytes were dispatched before comes indexed from `cache` instead of being decoded again.
/// `limits` bounds the scene's views and the touches' records (a cached scene was within the
/// same limits when it was cached).
struct StatelessDispatchBody {
    var scene: CachedScene
    var touches: TouchSequence
    var records: [TouchRecord]
    var knobs: KnobOverrides

    init(_ bytes: [UInt8], cache: StatelessSceneCache, limits: Limits = .unlimited) throws(Problem) {
        if let fast = Self.skimming(bytes, cache: cache, limits: limits) {
            self = fast
            return
        }
        let tape: JSONTape
        do throws(InputError) { tape = try InputDecoder.parse(bytes) } catch { throw Problem(error) }
        let reader = DocumentReader(tape: tape, limits: limits)
        var cached: CachedScene?, decoded: (scene: Scene, directory: ObjectDirectory?, key: SceneBytes)?
        var touches = TouchSequence(), records: [TouchRecord] = [], knobs = KnobOverrides()
        var seenScene = false, seenTouches = false
        reader.object(tape.root, at: { "" }) { (key: RequestKey, v) in
            let at = "/" + key.rawValue
            switch key {
            case .scene:
                seenScene = true
                let sceneKey = SceneBytes(tape.rawBytes(v))
                if let hit = cache.get(sceneKey) { cached = hit } else {
                    let (scene, directory) = reader.sceneKeepingDirectory(at: v, pointer: at)
                    decoded = (scene, directory, sceneKey)
                }
            case .touches: seenTouches = true; (touches, records) = reader.touchSequence(at: v, pointer: at)
            case .knobs: knobs = reader.knobs(at: v, pointer: at)
            }
        }
        if tape.kind(tape.root) == .object {
            if !seenScene { reader.report({ "/" + RequestKey.scene.rawValue }, "required: the scene document") }
            if !seenTouches { reader.report({ "/" + RequestKey.touches.rawValue }, "required: the touches document") }
        }
        guard reader.issues.isEmpty else { throw Problem(.invalid(ValidationFailure(reader.issues))) }
        if let cached {
            scene = cached
        } else if let decoded {
            // The directory the validation built (the scene is valid, so it ran).
            let index = decoded.directory.map { SceneIndex(validated: decoded.scene, directory: $0) }
                ?? SceneIndex(validated: decoded.scene)
            cache.put(decoded.key, index)
            scene = CachedScene(index: index, refs: nil)
        } else {
            throw Problem.internalError("The request has no scene.")
        }
        self.touches = touches
        self.records = records
        self.knobs = knobs
    }

    private init(scene: CachedScene, touches: TouchSequence, records: [TouchRecord], knobs: KnobOverrides) {
        self.scene = scene
        self.touches = touches
        self.records = records
        self.knobs = knobs
    }

    /// The fast path for a scene sent before: the request's top level is skimmed
    /// (`JSONSkimmer`), the scene member is recognised byte for byte in `cache` without being
    /// read, and only `touches` and `knobs` are parsed. It answers only when the full decode
    /// would succeed with the same values; anything else (an unknown or repeated key, an
    /// escaped key, a scene not cached, any syntax or validation issue) returns nil and the
    /// full decode runs, so errors come out exactly as before.
    static func skimming(_ bytes: [UInt8], cache: StatelessSceneCache, limits: Limits = .unlimited) -> Self? {
        bytes.withUnsafeBufferPointer { buffer -> Self? in
            var skim = JSONSkimmer(buffer)
            skim.skipWhitespace()
            guard skim.consume(0x7B) else { return nil }
            var scene: CachedScene?
            var touches: Range<Int>?, knobs: Range<Int>?
            repeat {
                skim.skipWhitespace()
                guard let key = skim.plainString() else { return nil }
                skim.skipWhitespace()
                guard skim.consume(0x3A) else { return nil }
                skim.skipWhitespace()
                let start = skim.pos
                switch RequestKey.names.value(UnsafeBufferPointer(rebasing: buffer[key])) {
                case .scene? where scene == nil:
                    guard let hit = cache.match(buffer, at: start) else { return nil }
                    scene = hit.scene
                    skim.pos = start + hit.length
                case .touches? where touches == nil:
                    guard skim.skipValue() else { return nil }
                    touches = start..<skim.pos
                case .knobs? where knobs == nil:
                    guard skim.skipValue() else { return nil }
                    knobs = start..<skim.pos
                default:
                    return nil
                }
                skim.skipWhitespace()
            } while skim.consume(0x2C)
            guard skim.consume(0x7D) else { return nil }
            skim.skipWhitespace()
            guard skim.atEnd, let scene, let touches else { return nil }

            guard let touchesTape = try? JSONTape(parsing: Array(buffer[touches])) else { return nil }
            let reader = DocumentReader(tape: touchesTape, limits: limits)
            let (sequence, records) = reader.touchSequence(at: touchesTape.root, pointer: "/touches")
            var overrides = KnobOverrides()
            if let knobs {
                guard let knobsTape = try? JSONTape(parsing: Array(buffer[knobs])) else { return nil }
                let knobsReader = DocumentReader(tape: knobsTape)
                overrides = knobsReader.knobs(at: knobsTape.root, pointer: "/knobs")
                guard knobsReader.issues.isEmpty else { return nil }
            }
            guard reader.issues.isEmpty else { return nil }
            return Self(scene: scene, touches: sequence, records: records, knobs: overrides)
        }
    }
}
