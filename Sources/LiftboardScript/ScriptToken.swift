import LiftboardWire

/// One word of a script line: bare (`a`, `ArrowDown`) or a JSON string (`" "`, `"my card"`),
/// which is how a token with spaces, quotes or a trailing colon is written.
struct ScriptToken: Hashable, Sendable {
    var text: String
    var quoted: Bool

    /// Splits `line` into tokens: runs of non-blank characters, or JSON strings.
    static func split(_ line: Substring) throws(ScriptReadError) -> [ScriptToken] {
        var tokens: [ScriptToken] = []
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 { i += 1; continue }
            if c == UInt8(ascii: "\"") {
                let (text, next) = try quoted(bytes, at: i)
                tokens.append(ScriptToken(text: text, quoted: true))
                i = next
            } else {
                var j = i
                while j < bytes.count, bytes[j] != 0x20, bytes[j] != 0x09 { j += 1 }
                tokens.append(ScriptToken(text: String(decoding: bytes[i..<j], as: UTF8.self), quoted: false))
                i = j
            }
        }
        return tokens
    }

    /// The JSON string that opens at `bytes[i]` (a quote): its text, and the index after it.
    static func quoted(_ bytes: [UInt8], at i: Int) throws(ScriptReadError) -> (text: String, next: Int) {
        var j = i + 1
        while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
            j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard j < bytes.count, case .string(let s)? = try? JSONParser.parse(bytes[i...j]) else { throw .unterminatedString }
        return (s, j + 1)
    }

    /// `text` as a script writes it: bare when that reads back the same, quoted otherwise.
    static func written(_ text: String) -> String {
        let plain = !text.isEmpty && !text.hasPrefix("\"") && !text.hasPrefix("#") && !text.hasSuffix(":")
            && !text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        if plain { return text }
        var w = JSONWriter()
        w.string(text)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
