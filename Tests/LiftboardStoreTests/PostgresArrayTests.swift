import Testing
@testable import LiftboardStore

@Suite struct PostgresArrayTests {
    @Test func everyElementIsQuotedWithItsBackslashesAndQuotesEscaped() {
        #expect(postgresArray([]) == "{}")
        #expect(postgresArray(["a"]) == #"{"a"}"#)
        #expect(postgresArray([#"say "hi""#, #"C:\dir"#, "x,y}", "{z}", "é ✓", ""])
                == #"{"say \"hi\"","C:\\dir","x,y}","{z}","é ✓",""}"#)
    }

    @Test func nilElementsAreNULLAndTheRestAsAbove() {
        #expect(postgresArray(optional: [nil, "1", #"\""#, "NULL"]) == #"{NULL,"1","\\\"","NULL"}"#)
    }
}
