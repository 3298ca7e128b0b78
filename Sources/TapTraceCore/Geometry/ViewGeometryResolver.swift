/// Turns a view's geometry as the scene states it (contract §1) into `ViewGeometry`.
public enum ViewGeometryResolver {
    /// Bounds size whose transformed bounding box is `frame`:
    /// |a|·w + |c|·h = frame.width and |b|·w + |d|·h = frame.height.
    /// nil when that system has no unique non-negative solution (e.g. a 45° rotation).
    public static func solveSize(frame: Rect, transform t: AffineTransform) -> Size? {
        let a = abs(t.a), b = abs(t.b), c = abs(t.c), d = abs(t.d)
        let det = a * d - c * b
        guard abs(det) > 1e-9 else { return nil }
        let w = (frame.size.width * d - c * frame.size.height) / det
        let h = (a * frame.size.height - b * frame.size.width) / det
        guard w >= -1e-9, h >= -1e-9, w.isFinite, h.isFinite else { return nil }
        return Size(max(0, w), max(0, h))
    }

    /// The resolved geometry; nil only for scenes the validator rejects.
    public static func resolve(_ view: ViewSpec) -> ViewGeometry? {
        let transform = view.transform ?? .identity
        if let frame = view.frame {
            if transform.isIdentity {
                return ViewGeometry(frame: frame, boundsOrigin: view.bounds?.origin ?? .zero)
            }
            let size = view.bounds?.size ?? solveSize(frame: frame, transform: transform)
            guard let size else { return nil }
            // The frame's center includes the transform's translation; `center` does not.
            let center = Point(frame.midX - transform.tx, frame.midY - transform.ty)
            return ViewGeometry(center: center, bounds: Rect(origin: view.bounds?.origin ?? .zero, size: size),
                                transform: transform)
        }
        guard let center = view.center, let bounds = view.bounds else { return nil }
        return ViewGeometry(center: center, bounds: bounds, transform: transform)
    }
}
