/// JUnit XML for CI systems: one `testsuite`, one `testcase` per script, a `failure` for a
/// script that failed and an `error` for one that could not be read. No times: the same run
/// gives the same bytes.
public enum JUnitWriter {
    public static func xml(_ results: [ScriptResult], suite: String = "liftboard test") -> String {
        let failures = results.filter { if case .failed = $0.outcome { true } else { false } }.count
        let errors = results.filter { if case .broken = $0.outcome { true } else { false } }.count
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<testsuites name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        s += "  <testsuite name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
        for r in results {
            let name = escape(r.path)
            switch r.outcome {
            case .passed:
                s += "    <testcase name=\"\(name)\" classname=\"liftboard.test\"/>\n"
            case .failed(let f):
                s += "    <testcase name=\"\(name)\" classname=\"liftboard.test\">\n"
                s += "      <failure message=\"\(escape("line \(f.line.number): \(f.line.text)"))\" type=\"expectation\">"
                s += escape(TestReport.text(r)) + "</failure>\n"
                s += "    </testcase>\n"
            case .broken(let p):
                s += "    <testcase name=\"\(name)\" classname=\"liftboard.test\">\n"
                s += "      <error message=\"\(escape("line \(p.line): \(p.error)"))\" type=\"script\">"
                s += escape(TestReport.text(r)) + "</error>\n"
                s += "    </testcase>\n"
            }
        }
        s += "  </testsuite>\n</testsuites>\n"
        return s
    }

    /// XML text and attribute escaping; characters XML 1.0 cannot hold become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                out.unicodeScalars.append(u.value < 0x20 || (0xFFFE...0xFFFF).contains(u.value) ? "\u{FFFD}" : u)
            }
        }
        return out
    }
}
