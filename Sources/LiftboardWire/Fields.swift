import LiftboardCore

/// Typed, range-checked access to a JSON object's members, failing with `bad_message` errors
/// that name the field (`move.x: expected a number`).
struct Fields {
    let object: JSONValue
    /// The path prefix for messages, such as `move` or `hello.config`.
    let path: String

    func fail(_ key: String, _ reason: String) -> WireError {
        WireError(code: .badMessage, message: "\(path).\(key): \(reason)")
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    func number(_ key: String, in range: ClosedRange<Double>) throws(WireError) -> Double {
        guard let v = object[key] else { throw fail(key, "missing") }
        guard case .number(let d) = v else { throw fail(key, "expected a number, got \(v.typeName)") }
        guard d.isFinite else { throw fail(key, "must be finite") }
        guard range.contains(d) else { throw fail(key, "out of range [\(fmt(range.lowerBound)), \(fmt(range.upperBound))]") }
        return d
    }

    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(WireError) -> Double? {
        has(key) ? try number(key, in: range) : nil
    }

    /// A number above `lower` (exclusive) and at most `upper`.
    func number(_ key: String, above lower: Double, upTo upper: Double) throws(WireError) -> Double {
        let d = try number(key, in: lower...upper)
        guard d > lower else { throw fail(key, "must be greater than \(fmt(lower))") }
        return d
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(WireError) -> Int {
        let d = try number(key, in: Double(range.lowerBound)...Double(range.upperBound))
        guard d == d.rounded() else { throw fail(key, "expected an integer") }
        return Int(d)
    }

    func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(WireError) -> Int? {
        has(key) ? try int(key, in: range) : nil
    }

    func string(_ key: String, maxLength: Int, allowEmpty: Bool = false) throws(WireError) -> String {
        guard let v = object[key] else { throw fail(key, "missing") }
        guard case .string(let s) = v else { throw fail(key, "expected a string, got \(v.typeName)") }
        guard allowEmpty || !s.isEmpty else { throw fail(key, "must not be empty") }
        guard s.utf8.count <= maxLength else { throw fail(key, "longer than \(maxLength) bytes") }
        return s
    }

    /// A member naming one of `T`'s cases by its raw value, if present; the error lists them
    /// in declaration order (`expected "every" or "quiet"`).
    func optionalChoice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(WireError) -> T? where T.RawValue == String {
        guard has(key) else { return nil }
        guard let m = T(rawValue: try string(key, maxLength: 16)) else {
            throw fail(key, "expected " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))
        }
        return m
    }

    /// A required id (a string of 1 to 256 bytes) or null (`nil`); `null` says what null means
    /// in the message for a missing member, `what` what the id names.
    func idOrNull(_ key: String, null: String, what: String = "an item id") throws(WireError) -> String? {
        guard let v = object[key] else { throw fail(key, "missing (null for \(null))") }
        switch v {
        case .null: return nil
        case .string(let s) where !s.isEmpty && s.utf8.count <= 256: return s
        default: throw fail(key, "expected \(what) or null")
        }
    }

    func bool(_ key: String) throws(WireError) -> Bool {
        guard let v = object[key] else { throw fail(key, "missing") }
        guard case .bool(let b) = v else { throw fail(key, "expected true or false, got \(v.typeName)") }
        return b
    }

    func object(_ key: String) throws(WireError) -> Fields {
        guard let v = object[key] else { throw fail(key, "missing") }
        guard case .object = v else { throw fail(key, "expected an object, got \(v.typeName)") }
        return Fields(object: v, path: "\(path).\(key)")
    }

    func array(_ key: String, max: Int) throws(WireError) -> [JSONValue] {
        guard let v = object[key] else { throw fail(key, "missing") }
        guard case .array(let a) = v else { throw fail(key, "expected an array, got \(v.typeName)") }
        guard a.count <= max else { throw fail(key, "more than \(max) entries") }
        return a
    }

    /// An array of strings (ids): `array(key, max:)`, each entry a string.
    func strings(_ key: String, max: Int) throws(WireError) -> [String] {
        try array(key, max: max).enumerated().map { (j, v) throws(WireError) in
            guard case .string(let s) = v else { throw fail("\(key)[\(j)]", "expected a string") }
            return s
        }
    }
}

/// A compact number for messages: `10000000`, not `1e+07`.
func fmt(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 9e18 { return String(Int(d)) }
    return String(d)
}
