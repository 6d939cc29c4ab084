import LiftboardCore

extension Wire {
    /// A change as the JSON a commit carries (`{"id", "section", "after", "index"}`,
    /// `{"swap": [x, y]}` or `{"edit": KIND, ...}`): what the stores keep for an edit.
    public static func encodeChange(_ c: Change) -> String {
        var w = JSONWriter()
        change(c, &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Writes a change as a commit carries it, as the value of the member just started.
    public static func writeChange(_ c: Change, into w: inout JSONWriter) { change(c, &w) }

    /// The change `encodeChange` wrote, or nil when the text is not one.
    public static func decodeChange(_ text: String) -> Change? {
        guard let v = try? JSONParser.parse(Array(text.utf8)), case .object = v else { return nil }
        return try? change(Fields(object: v, path: "change"))
    }

    /// An edit given as a JSON object (`{"edit": KIND, ...}`, as in a commit's `change`),
    /// validated as the wire validates it; errors name the field under `path`.
    public static func decodeEdit(_ v: JSONValue, path: String) throws(WireError) -> Change {
        guard case .object = v else { throw WireError(code: .badMessage, message: "\(path): expected an object, got \(v.typeName)") }
        return try edit(Fields(object: v, path: path))
    }
}
