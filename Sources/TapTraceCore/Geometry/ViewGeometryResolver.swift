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
        resolve(frame: view.frame, bounds: view.bounds, center: view.center, transform: view.transform)
    }

    /// The same from the four properties (a view's geometry read in place: a `ViewSpec` is
    /// half a kilobyte to copy, with every reference in it retained).
    public static func resolve(frame: Rect?, bounds: Rect?, center: Point?, transform: AffineTransform?) -> ViewGeometry? {
        let transform = transform ?? .identity
        if let frame {
            if transform.isIdentity {
                return ViewGeometry(frame: frame, boundsOrigin: bounds?.origin ?? .zero)
            }
            let size = bounds?.size ?? solveSize(frame: frame, transform: transform)
            guard let size else { return nil }
            // The frame's center includes the transform's translation; `center` does not.
            let center = Point(frame.midX - transform.tx, frame.midY - transform.ty)
            return ViewGeometry(center: center, bounds: Rect(origin: bounds?.origin ?? .zero, size: size),
                                transform: transform)
        }
        guard let center, let bounds else { return nil }
        return ViewGeometry(center: center, bounds: bounds, transform: transform)
    }
}
