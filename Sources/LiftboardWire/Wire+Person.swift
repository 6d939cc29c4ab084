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

    /// A renewal mid-stream (issue 42): `{"t":"person","user":U,"name":N,"role":R,"ms":M}`, a
    /// replay-only input line a recording writes where an `auth` message renewed the session's
    /// token as another person (never the token); a replay hands it to `Session.renew`. nil
    /// when `line` is not a `person` line; a person line that does not read is `bad_message`.
    public static func decodePersonInput(_ line: some Collection<UInt8>) -> Result<(person: Person, ms: Double), WireError>? {
        guard case .object(let members)? = try? JSONParser.parse(line),
              case .string("person")? = members.first(where: { $0.0 == "t" })?.1 else { return nil }
        let f = Fields(object: .object(members), path: "person")
        do throws(WireError) {
            guard let role = try f.optionalChoice("role", Role.self) else { throw f.fail("role", "missing") }
            let user = f.has("user") ? try f.string("user", maxLength: 256) : nil
            let name = f.has("name") ? try f.string("name", maxLength: 256, allowEmpty: true) : nil
            return .success((Person(user: user, name: name, role: role), try f.number("ms", in: msRange)))
        } catch {
            return .failure(error)
        }
    }

    /// The line `decodePersonInput` reads: `person` renewed at `ms`.
    public static func encodePersonInput(_ person: Person, ms: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string("person")
        personFields(person, &w)
        w.key("ms"); w.number(ms)
        w.endObject()
        return w.bytes
    }

    /// `# person {...}`: the line `decodePersonLine` reads (`user` and `name` when known).
    public static func encodePersonLine(_ person: Person) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        personFields(person, &w)
        w.endObject()
        return personLinePrefix + w.bytes
    }

    /// `"user":U,"name":N,"role":R` (`user` and `name` when known).
    private static func personFields(_ person: Person, _ w: inout JSONWriter) {
        if let user = person.user { w.key("user"); w.string(user) }
        if let name = person.name { w.key("name"); w.string(name) }
        w.key("role"); w.string(person.role.rawValue)
    }
}

/// Tokens in a replay (`Replay.run`): the `# person` line and the `person` input.
extension Replay {
    /// A `# person` line: the session acts for its person, when it comes before `hello`.
    static func personLine(_ person: Result<Person, WireError>, _ session: inout Session) -> [ServerEvent] {
        switch person {
        case .failure(let e): return [.error(code: e.code, message: e.message)]
        case .success(let p) where session.boardID == nil: session = Session(id: sessionID, person: p); return []
        case .success: return [.error(code: .badMessage, message: "# person: it goes before hello (the session has started)")]
        }
    }

    /// A line of a type the decoder does not know (`unknown`): a `person` input, where a renewed
    /// token changed whom the session acts for (`Session.renew`), or the `unknown` error.
    static func personInput(_ line: some Collection<UInt8>, unknown: WireError, _ session: inout Session,
                            clock: inout Double) -> [ServerEvent] {
        switch Wire.decodePersonInput(line) {
        case .success(let r)? where r.ms >= clock:
            clock = r.ms
            return session.renew(person: r.person, at: clock)
        case .success(let r)?: return [backInTime(r.ms, clock: clock)]
        case .failure(let e)?: return [.error(code: e.code, message: e.message)]
        case nil: return [.error(code: unknown.code, message: unknown.message)]
        }
    }
}
