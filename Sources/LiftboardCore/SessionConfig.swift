/// How a drag rearranges the items between the lift place and the target.
public enum ReorderMode: String, Sendable, Hashable, CaseIterable {
    /// The items between shift by one place (UICollectionView's interactive movement).
    case insert
    /// The dragged item and the target exchange places; the rest stay.
    case swap
}

/// What a `commit` message carries for this client.
public enum CommitOrderMode: String, Sendable, Hashable, CaseIterable {
    /// The whole committed order, as contract §5 says (the default).
    case full
    /// Only the change and its moves: the client applies the change itself (big boards).
    case none
}

/// Which `layout` messages name their layout (`"layout"`).
public enum LayoutsMode: String, Sendable, Hashable, CaseIterable {
    /// A columns board's only, as before this choice existed (the default).
    case implicit
    /// Every one: `"list"`, `"grid"` or `"columns"`, so a client draws each kind without
    /// guessing it from the cells' geometry.
    case named
}

/// The values in force for one session (contract §3, `config`). Defaults are the contract's.
public struct SessionConfig: Hashable, Sendable {
    public var pressMs: Double = 500
    /// Trees: how long a drag's center rests over a collapsed row before it expands (spring-open).
    public var springMs: Double = 500
    public var allowableMovement: Double = 10
    public var mode: ReorderMode = .insert
    public var edgeScrollRange: Double = 60
    public var edgeScrollSpeed: Double = 1200
    public var liftScale: Double = 1.05
    public var liftRotation: Double = 0.0873
    public var liftAlpha: Double = 0.8
    public var liftMs: Double = 300
    public var shiftMs: Double = 250
    public var dropMs: Double = 250
    public var idleResetMs: Double = 0
    public var reducedMotion: Bool = false
    /// Extension: whether `commit` messages carry `order` (`"full"`) or leave it out (`"none"`).
    public var commitOrder: CommitOrderMode = .full
    /// Extension: `lift`, `moved` and `drop` as messages (`"separate"`) or inside frames (`"inline"`).
    public var events: EventsMode = .separate
    /// Extension: whether a move that only moves a pointer drag's snapshot is answered
    /// (`"every"`) or left to the client's prediction (`"quiet"`; LiveSession+Quiet.swift).
    public var follow: FollowMode = .every
    /// Extension: a commit from elsewhere as a message of its own after its frame
    /// (`"separate"`) or inside it (`"inline"`: one message per watcher per commit).
    public var commits: CommitsMode = .separate
    /// Extension: whether a list's or a grid's `layout` names its layout (`"named"`) or only a
    /// columns board's does (`"implicit"`).
    public var layouts: LayoutsMode = .implicit
    /// Extension (issue 44): each `presence` whole (`"full"`) or as a difference (`"delta"`).
    public var presence: PresenceMode = .full
    public init() {}
}

extension SessionConfig {
    /// How far (px) a lifted snapshot's ends may rise or fall: the tilt is capped so that half
    /// the snapshot's width times the sine of the tilt stays within it.
    public static let tiltRise: Double = 18

    /// The lifted snapshot's tilt for a cell `width` wide: `liftRotation`, its size capped at
    /// asin(36 / width) so that the snapshot's ends rise or fall at most `tiltRise` px (a
    /// 390 px phone row keeps the default 0.0873; a 1,200 px row tilts 0.0300). A cell at most
    /// 36 px wide keeps `liftRotation`. The page's prediction (Public/predict.js) computes
    /// the same number by the same operations.
    public func liftRotation(width: Double) -> Double {
        let limit = 2 * Self.tiltRise
        guard width > limit else { return liftRotation }
        let cap = arcsine(limit / width)
        return liftRotation > cap ? cap : liftRotation < -cap ? -cap : liftRotation
    }
}

/// asin(x) for x in [0, 1] by +, -, *, / and square roots alone, which Swift and JavaScript
/// both round exactly, so the page's copy (Public/predict.js, `arcsine`) gives the same bits
/// (a libm's asin may differ in its last bits between platforms). Within 10^-15 of asin.
/// asin x = 2 atan(x / (1 + sqrt((1 - x)(1 + x)))), and atan z = 2 atan(z / (1 + sqrt(1 + z²))) twice
/// more brings z under tan(pi/16) (about 0.2), where 14 terms of atan's series reach 10^-20.
public func arcsine(_ x: Double) -> Double {
    var z = x / (1 + ((1 - x) * (1 + x)).squareRoot())
    for _ in 0..<2 { z = z / (1 + (1 + z * z).squareRoot()) }
    let z2 = z * z
    var term = z, sum = z
    for k in 1...14 {
        term = -term * z2
        sum += term / Double(2 * k + 1)
    }
    return 8 * sum
}
