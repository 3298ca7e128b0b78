import TapTraceFormats

// The keys of the service's own request bodies (contract §6), declared once: the bodies'
// decoders switch over them and an unknown key's issue lists them.

/// `POST /v1/scenes/{id}/dispatch`, and a stored run's request (`touches`, `knobs`).
enum StoredDispatchKey: String, DocumentKey {
    case touches, knobs, version, label
    static let names = NameTable<Self>()
}

/// A stored run's request, read back for a replay.
enum StoredRequestKey: String, DocumentKey {
    case touches, knobs
    static let names = NameTable<Self>()
}

/// `POST /v1/scenes/{id}/hit-test`.
enum HitTestQueryKey: String, DocumentKey {
    case point, version, knobs
    static let names = NameTable<Self>()
}

/// `POST /v1/scenes/{id}/explain`.
enum ExplainQueryKey: String, DocumentKey {
    case point, target, version, knobs
    static let names = NameTable<Self>()
}

/// `POST /v1/scenes/{id}/replay`.
enum ReplayKey: String, DocumentKey {
    case from, to
    static let names = NameTable<Self>()
}
