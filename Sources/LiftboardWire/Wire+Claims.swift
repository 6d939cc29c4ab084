import LiftboardCore

/// Issue 44, holds across processes: the store's claims as a recording's input lines (never
/// sent by a client: `replay only`). `{"t":"claims","ms":N}`: holds go through the store
/// (`ClaimInput.required`); `{"t":"claimed","item":ID,"holder":NAME|null,"ms":N}`: the answer
/// to a claim (won when `holder` is null); `{"t":"claimed","item":ID,"failed":true,"ms":N}`:
/// the claim could not be made.
extension Wire {
    /// The line of `input`, at `ms` (the session's clock).
    public static func encodeClaimInput(_ input: ClaimInput, ms: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        switch input {
        case .required:
            w.key("t"); w.string("claims")
        case .answer(let item, let holder):
            w.key("t"); w.string("claimed")
            w.key("item"); w.string(item)
            w.key("holder")
            if let holder { w.string(holder) } else { w.null() }
        case .failed(let item):
            w.key("t"); w.string("claimed")
            w.key("item"); w.string(item)
            w.key("failed"); w.bool(true)
        }
        w.key("ms"); w.number(ms)
        w.endObject()
        return w.bytes
    }

    /// A `claimed` line's members (`t` read already).
    static func claimed(_ f: Fields) throws(WireError) -> ClaimInput {
        let item = try f.string("item", maxLength: 256)
        if f.has("failed"), try f.bool("failed") { return .failed(item: item) }
        if case .null? = f.object["holder"] { return .answer(item: item, holder: nil) }
        return .answer(item: item, holder: try f.string("holder", maxLength: 256))
    }
}
