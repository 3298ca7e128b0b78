/// UIKit points: origin top-left, y down. `Double` because `CGFloat` is a double on every
/// 64-bit device, so arithmetic here rounds the way UIKit's does.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)

    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }
}

public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
}

public struct Rect: Sendable, Hashable {
    public var origin: Point
    public var size: Size
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var center: Point { Point(midX, midY) }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// `CGRect.contains(_:)` (H4): the minimum-x and minimum-y edges are inside, the maximum
    /// edges are outside; an empty rect contains nothing.
    public func contains(_ p: Point) -> Bool {
        guard !isEmpty else { return false }
        return p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// `UIEdgeInsets` applied as `bounds.inset(by:)`: positive insets shrink, negative grow.
    public func inset(top: Double, left: Double, bottom: Double, right: Double) -> Rect {
        Rect(minX + left, minY + top, size.width - left - right, size.height - top - bottom)
    }

    /// Grown by `margin` on every side (K3 tracking slop).
    public func outset(by margin: Double) -> Rect {
        Rect(minX - margin, minY - margin, size.width + 2 * margin, size.height + 2 * margin)
    }

    /// Ellipse inscribed in the rect (the `circle` pointInside override).
    public func ellipseContains(_ p: Point) -> Bool {
        guard !isEmpty else { return false }
        let rx = size.width / 2, ry = size.height / 2
        let dx = (p.x - midX) / rx, dy = (p.y - midY) / ry
        return dx * dx + dy * dy <= 1
    }
}

/// `CGAffineTransform` [a, b, c, d, tx, ty]: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Sendable, Hashable {
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public var isIdentity: Bool { self == .identity }
    public var determinant: Double { a * d - b * c }

    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The inverse, or nil when the transform is singular (a view scaled to zero, which UIKit
    /// can never hit).
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id,
                               tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
}
