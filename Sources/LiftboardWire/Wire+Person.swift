import LiftboardCore

/// Who a stream's session acts for (issue 42): a recording of a session admitted with a token
/// starts with a comment line `# person {"user": U, "name": N, "role": R}` (never the token);
/// `liftboard replay` and `liftboard test` run the stream as that person, and as `Person.open`
/// (no user, role `edit`) when it has no such line. A line every other reader skips as a comment.
extension Wire {
    /// What starts a person line.
    public static let personLinePrefix = Array("# person ".utf8)

    /// The person a `# person` line names; nil when `line` is not one (any other comment or
    /// message). A person line that does not read is `bad_message`, naming the field.
    public static func decodePersonLine(_ line: some Collection<UInt8>) -> Result<Person, WireError>? {
        guard line.starts(with: personLinePrefix) else { return nil }
        let body = line.dropFirst(personLinePrefix.count)
        let value: JSONValue
        do { value = try JSONParser.parse(body) } catch {
            return .failure(WireError(code: .badJSON, message: "# person: \(error.description)"))
        }
        guard case .object = value else {
            return .failure(WireError(code: .badMessage, message: "# person: expected a JSON object, got \(value.typeName)"))
        }
        let f = Fields(object: value, path: "person")
        do throws(WireError) {
            guard let role = try f.optionalChoice("role", Role.self) else { throw f.fail("role", "missing") }
            let user = f.has("user") ? try f.string("user", maxLength: 256) : nil
            let name = f.has("name") ? try f.string("name", maxLength: 256, allowEmpty: true) : nil
            return .success(Person(user: user, name: name, role: role))
        } catch {
            return .failure(error)
        }
    }

    /// `# person {...}`: the line `decodePersonLine` reads (`user` and `name` when known).
    public static func encodePersonLine(_ person: Person) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        if let user = person.user { w.key("user"); w.string(user) }
        if let name = person.name { w.key("name"); w.string(name) }
        w.key("role"); w.string(person.role.rawValue)
        w.endObject()
        return personLinePrefix + w.bytes
    }
}
