import LiftboardCore
import Testing

/// `Card` keeps its fields in one shared, immutable box (none for an empty card): it must still
/// behave as a plain value: copies independent, equality and hashing by the fields, and a card
/// whose fields are all taken away the empty card again.
@Suite struct CardValueTests {
    let full = Card(detail: "Two litres", image: "/media/milk.svg", badge: "3",
                    tags: [Tag(text: "errand", color: "#f4b400"), Tag(text: "shop")], accent: "#ff00ff")

    @Test("a card set field by field equals the card made whole, hashes the same, and reads back from its text")
    func setters() {
        var c = Card()
        #expect(c.isEmpty)
        c.detail = "Two litres"
        c.image = "/media/milk.svg"
        c.badge = "3"
        c.tags.append(Tag(text: "errand", color: "#f4b400"))
        c.tags.append(Tag(text: "shop"))
        c.accent = "#ff00ff"
        #expect(!c.isEmpty)
        #expect(c == full)
        #expect(c.hashValue == full.hashValue)
        #expect(Set([c, full]).count == 1)
        #expect(Card(text: c.text!) == full)
    }

    @Test("a copy changed leaves the card it was copied from as it was")
    func copiesAreIndependent() {
        let original = full
        var copy = original
        copy.badge = "4"
        copy.tags[0].color = ""
        #expect(original == full)
        #expect(original.badge == "3" && original.tags[0].color == "#f4b400")
        #expect(copy.badge == "4" && copy.tags[0].color == "")
        #expect(copy != original)
    }

    @Test("a card whose fields are all taken away is the empty card: equal, same hash, no text")
    func emptiedIsEmpty() {
        var c = full
        c.detail = nil
        c.image = nil
        c.badge = nil
        c.tags = []
        #expect(!c.isEmpty, "the accent is still set")
        c.accent = nil
        #expect(c.isEmpty)
        #expect(c == Card())
        #expect(c.hashValue == Card().hashValue)
        #expect(c.text == nil)
        // An empty text is a field (it is set, to nothing): the card is not empty.
        #expect(!Card(detail: "").isEmpty)
        #expect(Card(detail: "") != Card())
    }
}
