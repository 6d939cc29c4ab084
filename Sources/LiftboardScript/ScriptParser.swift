import LiftboardCore
import LiftboardWire

/// Reads a gesture script: one step a line, `#` comment lines, blank lines skipped.
public enum ScriptParser {
    public static func parse(_ text: String) throws(ScriptProblem) -> [ScriptLine] {
        var out: [ScriptLine] = []
        var sawGesture = false
        // By scalars: a Character would hold "\r\n" whole, and CRLF files would be one line.
        for (i, scalars) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(scalars)
            if line.unicodeScalars.last == "\r" { line = Substring(line.unicodeScalars.dropLast()) }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.first == "#" { continue }
            let step: Step
            do { step = try parseStep(trimmed) } catch { throw ScriptProblem(line: i + 1, error: error) }
            if step.isSetup, sawGesture {
                throw ScriptProblem(line: i + 1, error: .setupAfterGesture(step.keyword))
            }
            if !step.isSetup, !step.isExpectation { sawGesture = true }
            var text = Substring(trimmed)
            while let l = text.last, l == " " || l == "\t" { text = text.dropLast() }
            out.append(ScriptLine(number: i + 1, text: String(text), step: step))
        }
        return out
    }

    static func parseStep(_ line: Substring) throws(ScriptReadError) -> Step {
        let keyword = line.prefix { $0 != " " && $0 != "\t" }
        let rest = line.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }
        switch keyword {
        case "config": return .config(try object(rest, step: "config"))
        case "send":
            let v = try object(rest, step: "send")
            // Validated now (with the `ms` the run gives it, when it has none), so that a wrong
            // message is the script's error (exit 2), not a surprise in the middle of a run.
            var w = JSONWriter()
            w.value(Step.timed(v, at: 0))
            if case .failure(let e) = Wire.decodeClient(w.bytes) { throw .badMessage(e.message) }
            return .send(v)
        default: break
        }
        let t = try ScriptToken.split(rest)
        let words = t.map(\.text)
        func number(_ s: String, _ step: String) throws(ScriptReadError) -> Double {
            guard let d = Double(s), d.isFinite else { throw .badNumber(step: step, text: s) }
            return d
        }
        switch keyword {
        case "board":
            guard words.count == 1 else { throw .syntax(step: "board", usage: "board PATH") }
            return .board(words[0])
        case "viewport":
            guard words.count == 2 else { throw .syntax(step: "viewport", usage: "viewport W H") }
            let w = try number(words[0], "viewport"), h = try number(words[1], "viewport")
            guard w >= 1, h >= 1, w <= 100_000, h <= 100_000 else { throw .syntax(step: "viewport", usage: "viewport W H, sides from 1 to 100000") }
            return .viewport(w: w, h: h)
        case "person":
            let usage = "person view|move|edit|admin [USER [NAME]]"
            guard (1...3).contains(words.count), let role = Role(rawValue: words[0]) else { throw .syntax(step: "person", usage: usage) }
            return .person(Person(user: words.count > 1 ? words[1] : nil, name: words.count > 2 ? words[2] : nil, role: role))
        case "drag": return try drag(t)
        case "press", "tap":
            guard words.count == 1 else { throw .syntax(step: String(keyword), usage: "\(keyword) ITEM") }
            return keyword == "press" ? .press(words[0]) : .tap(words[0])
        case "click":
            let usage = "click ITEM [with shift|ctrl|meta|alt ...]"
            guard !words.isEmpty, words.count != 2, words.count == 1 || (words[1] == "with" && !t[1].quoted) else {
                throw .syntax(step: "click", usage: usage)
            }
            var mods: Modifiers = []
            for name in words.dropFirst(2) {
                guard let m = Modifiers(name: name), !mods.contains(m) else { throw .syntax(step: "click", usage: usage) }
                mods.insert(m)
            }
            return .click(words[0], mods: mods)
        case "pan":
            guard words.count == 2, let d = PanDirection(rawValue: words[0]) else {
                throw .syntax(step: "pan", usage: "pan up|down|left|right PX")
            }
            let px = try number(words[1], "pan")
            guard px > 0 else { throw .syntax(step: "pan", usage: "pan up|down|left|right PX, PX > 0") }
            return .pan(d, px)
        case "wheel":
            // `at X Y`: the pointer's place (a columns board scrolls the column under it).
            guard words.count == 2 || (words.count == 5 && words[2] == "at" && !t[2].quoted) else {
                throw .syntax(step: "wheel", usage: "wheel DX DY [at X Y]")
            }
            let at = words.count == 5 ? Point(x: try number(words[3], "wheel"), y: try number(words[4], "wheel")) : nil
            return .wheel(dx: try number(words[0], "wheel"), dy: try number(words[1], "wheel"), at: at)
        case "key":
            guard !words.isEmpty, words.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 32 }) else {
                throw .syntax(step: "key", usage: "key KEY... (DOM key names; \" \" for Space)")
            }
            return .key(words)
        case "wait":
            guard words.count == 1 else { throw .syntax(step: "wait", usage: "wait MS") }
            let ms = try number(words[0], "wait")
            guard ms >= 0 else { throw .syntax(step: "wait", usage: "wait MS, MS >= 0") }
            return .wait(ms)
        case "expect": return try expectation(t)
        default: throw .unknownStep(String(keyword))
        }
    }

    static func drag(_ t: [ScriptToken]) throws(ScriptReadError) -> Step {
        let usage = "drag X after Y | drag X first in S | drag X onto Y [then cancel]"
        var w = t.map(\.text)
        var cancel = false
        if w.count >= 2, w[w.count - 2] == "then", w[w.count - 1] == "cancel", !t[t.count - 1].quoted {
            cancel = true
            w.removeLast(2)
        }
        if w.count == 3, w[1] == "after" { return .drag(item: w[0], to: .after(w[2]), cancel: cancel) }
        if w.count == 3, w[1] == "onto" { return .drag(item: w[0], to: .onto(w[2]), cancel: cancel) }
        if w.count == 4, w[1] == "first", w[2] == "in" { return .drag(item: w[0], to: .first(section: w[3]), cancel: cancel) }
        throw .syntax(step: "drag", usage: usage)
    }

    static func expectation(_ t: [ScriptToken]) throws(ScriptReadError) -> Step {
        guard let kind = t.first?.text else {
            throw .syntax(step: "expect", usage: "expect order|commits|lifted|announce|selected ...")
        }
        let args = Array(t.dropFirst())
        switch kind {
        case "order":
            let usage = "expect order S: ID ID ..."
            guard let s = args.first else { throw .syntax(step: "expect order", usage: usage) }
            if !s.quoted, s.text.hasSuffix(":"), s.text.count > 1 {
                return .expectOrder(section: String(s.text.dropLast()), items: args.dropFirst().map(\.text))
            }
            guard args.count >= 2, args[1].text == ":", !args[1].quoted else { throw .syntax(step: "expect order", usage: usage) }
            return .expectOrder(section: s.text, items: args.dropFirst(2).map(\.text))
        case "commits":
            guard args.count == 1, let n = Int(args[0].text), n >= 0 else {
                throw .syntax(step: "expect commits", usage: "expect commits N")
            }
            return .expectCommits(n)
        case "lifted":
            guard args.count == 1 else { throw .syntax(step: "expect lifted", usage: "expect lifted X") }
            return .expectLifted(args[0].text)
        case "announce":
            guard !args.isEmpty else { throw .syntax(step: "expect announce", usage: "expect announce TEXT") }
            return .expectAnnounce(args.count == 1 ? args[0].text : args.map(\.text).joined(separator: " "))
        case "selected":
            return .expectSelected(args.map(\.text))
        default:
            throw .syntax(step: "expect", usage: "expect order|commits|lifted|announce|selected ...")
        }
    }

    static func object(_ text: Substring, step: String) throws(ScriptReadError) -> JSONValue {
        let v: JSONValue
        do { v = try JSONParser.parse(Array(text.utf8)) } catch { throw .badJSON(step: step, reason: error.description) }
        guard case .object = v else { throw .badJSON(step: step, reason: "expected a JSON object") }
        return v
    }
}
