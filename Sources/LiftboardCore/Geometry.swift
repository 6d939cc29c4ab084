/// A point in CSS pixels. Viewport or content coordinates, as the name of the value says.
public struct Point: Hashable, Sendable {
    public var x, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

/// A size in CSS pixels.
public struct Size: Hashable, Sendable {
    public var w, h: Double
    public init(w: Double, h: Double) { self.w = w; self.h = h }
    public static let zero = Size(w: 0, h: 0)
}

/// An axis-aligned rectangle: origin at the top-left, in CSS pixels.
public struct Rect: Hashable, Sendable {
    public var x, y, w, h: Double
    public init(x: Double, y: Double, w: Double, h: Double) { self.x = x; self.y = y; self.w = w; self.h = h }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + w }
    public var maxY: Double { y + h }
    public var midX: Double { x + w / 2 }
    public var midY: Double { y + h / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    public var size: Size { Size(w: w, h: h) }

    /// Half-open on the far edges, so that two touching cells never both contain a point.
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < x + w && p.y >= y && p.y < y + h }
}
