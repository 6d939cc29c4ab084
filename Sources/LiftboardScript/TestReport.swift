/// What `liftboard test` prints: each failure as `FILE:LINE:` and the step, then what was
/// expected and what happened as a diff, and one last line `N passed, M failed`.
public enum TestReport {
    public static func text(_ r: ScriptResult) -> String {
        switch r.outcome {
        case .passed:
            return "ok \(r.path)\n"
        case .broken(let p):
            // Line 0: the file as a whole (it cannot be read, it names no board).
            return p.line > 0 ? "\(r.path):\(p.line): \(p.error)\n" : "\(r.path): \(p.error)\n"
        case .failed(let f):
            var s = "\(r.path):\(f.line.number): \(f.line.text)\n"
            switch f.kind {
            case .expectation(let expected, let got):
                s += "  - expected \(expected)\n  + got \(got)\n"
            case .notReached(let why):
                s += "  not reached: \(why)\n"
            case .notLifted(let item, let got):
                s += "  - expected lifted \(item)\n  + got \(got.map { "lifted \($0)" } ?? "lifted nothing") (pinned, or not under the pointer)\n"
            case .sessionError(let m):
                s += "  the session answered with an error: \(m)\n"
            }
            if let g = f.gesture {
                if f.commits.isEmpty {
                    s += "  line \(g.number) (\(g.text)) committed nothing\n"
                } else {
                    s += "  commits of line \(g.number) (\(g.text)):\n"
                    for c in f.commits { s += "    \(c)\n" }
                }
            }
            return s
        }
    }

    public static func summary(_ results: [ScriptResult]) -> String {
        let passed = results.filter { $0.outcome == .passed }.count
        return "\(passed) passed, \(results.count - passed) failed\n"
    }

    /// 0 when every script passed, 1 when one failed, 2 when one could not be read or run.
    public static func exitStatus(_ results: [ScriptResult]) -> Int32 {
        var status: Int32 = 0
        for r in results {
            switch r.outcome {
            case .passed: break
            case .failed: status = max(status, 1)
            case .broken: status = 2
            }
        }
        return status
    }
}
