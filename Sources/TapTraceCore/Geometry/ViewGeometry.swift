/// Where a view sits in its superview's bounds coordinates, resolved once per scene (H5).
///
/// UIKit keeps `center` (position), `bounds` (origin = scroll offset) and `transform` (about the
/// center); `frame` is derived. Converting a superview point into the view's own space undoes
/// the translation to the center, the transform, then adds the bounds center.
public struct ViewGeometry: Sendable, Hashable {
    public let bounds: Rect
    public let center: Point
    public let transform: AffineTransform
    /// Frame origin when the transform is the identity, kept exact as the scene gave it.
    private let frameOrigin: Point
    private let linearInverse: AffineTransform?

    public init(center: Point, bounds: Rect, transform: AffineTransform = .identity) {
        self.center = center
        self.bounds = bounds
        self.transform = transform
        self.frameOrigin = Point(center.x - bounds.size.width / 2, center.y - bounds.size.height / 2)
        let linear = AffineTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: 0, ty: 0)
        self.linearInverse = transform.isIdentity ? nil : linear.inverted
    }

    /// Identity-transform geometry from a frame, keeping the frame origin exact.
    public init(frame: Rect, boundsOrigin: Point) {
        self.bounds = Rect(origin: boundsOrigin, size: frame.size)
        self.center = frame.center
        self.transform = .identity
        self.frameOrigin = frame.origin
        self.linearInverse = nil
    }

    /// `frame` as UIKit reports it: the bounding box of the transformed bounds.
    public var frame: Rect {
        if transform.isIdentity { return Rect(origin: frameOrigin, size: bounds.size) }
        let w = bounds.size.width, h = bounds.size.height
        let bw = abs(transform.a) * w + abs(transform.c) * h
        let bh = abs(transform.b) * w + abs(transform.d) * h
        let cx = center.x + transform.tx, cy = center.y + transform.ty
        return Rect(cx - bw / 2, cy - bh / 2, bw, bh)
    }

    /// A point in the superview's bounds coordinates, in this view's bounds coordinates
    /// (`convert(_:from: superview)`). A singular transform maps nothing: the result is NaN and
    /// no `contains` test accepts it.
    public func convertFromSuperview(_ p: Point) -> Point {
        if transform.isIdentity {
            return Point(p.x - frameOrigin.x + bounds.origin.x, p.y - frameOrigin.y + bounds.origin.y)
        }
        guard let inv = linearInverse else { return Point(.nan, .nan) }
        let q = inv.apply(Point(p.x - center.x - transform.tx, p.y - center.y - transform.ty))
        return Point(q.x + bounds.midX, q.y + bounds.midY)
    }

    /// A point in this view's bounds coordinates, in the superview's (`convert(_:to: superview)`).
    public func convertToSuperview(_ p: Point) -> Point {
        if transform.isIdentity {
            return Point(p.x - bounds.origin.x + frameOrigin.x, p.y - bounds.origin.y + frameOrigin.y)
        }
        let linear = AffineTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: 0, ty: 0)
        let q = linear.apply(Point(p.x - bounds.midX, p.y - bounds.midY))
        return Point(q.x + center.x + transform.tx, q.y + center.y + transform.ty)
    }
}
