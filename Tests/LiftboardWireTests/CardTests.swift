import LiftboardCore
import LiftboardWire
import Testing

/// Rich cells (issue 25): a card's fields in board files, edits and cells, and their limits.
@Suite struct CardTests {
    let card = Card(detail: "Two litres", image: "/media/milk.svg", badge: "3",
                    tags: [Tag(text: "errand", color: "#f4b400"), Tag(text: "shop")], accent: "#ff00ff")

    func decode(_ json: String) throws(BoardError) -> Board { try Wire.decodeBoard(Array(json.utf8)) }

    @Test("a board file's cards and subtitles decode, and a board encodes back to the same board")
    func boardFiles() throws {
        let b = try decode("""
            {"id": "k", "sections": [{"id": "s", "subtitle": "this week", "items": [
              {"id": "a", "detail": "Two litres", "image": "/media/milk.svg", "badge": "3", "accent": "#ff00ff",
               "tags": [{"text": "errand", "color": "#f4b400"}, {"text": "shop"}]},
              {"id": "b", "detail": ""}]}]}
            """)
        #expect(b.sections[0].items[0].card == card)
        #expect(b.sections[0].items[1].card.isEmpty, "an empty text is no field")
        #expect(b.sections[0].subtitle == "this week")
        #expect(try Wire.decodeBoard(Wire.encodeBoard(b)) == b)
    }

    @Test("a card's wrong types and too many tags name the field")
    func badFields() {
        let cases: [(String, String)] = [
            (##"{"id": "a", "detail": 3}"##, "sections[0].items[0].detail"),
            (##"{"id": "a", "tags": "red"}"##, "sections[0].items[0].tags"),
            (##"{"id": "a", "tags": [{"color": "#fff"}]}"##, "sections[0].items[0].tags[0].text"),
            (##"{"id": "a", "tags": [{"text": "x", "color": 1}]}"##, "sections[0].items[0].tags[0].color"),
            (##"{"id": "a", "tags": [{"text": "1"}, {"text": "2"}, {"text": "3"}, {"text": "4"}, {"text": "5"}, {"text": "6"}]}"##,
             "sections[0].items[0].tags"),
        ]
        for (item, field) in cases {
            do {
                _ = try decode(#"{"id": "k", "sections": [{"id": "s", "items": [\#(item)]}]}"#)
                Issue.record("\(item) was accepted")
            } catch { #expect(error.field == field, "\(item)") }
        }
    }

    @Test("the limits hold a card's text: detail 1024, image 512 (a path on this server), badge 32, tags 64, accent 64 bytes, subtitles 1024")
    func limits() throws {
        func board(_ c: Card, subtitle: String? = nil) -> Board {
            Board(id: "k", sections: [Section(id: "s", items: [Item(id: "a", card: c)], subtitle: subtitle)])
        }
        try BoardLimits.check(board(Card(detail: String(repeating: "d", count: 1024), image: "/" + String(repeating: "i", count: 511),
                                         badge: String(repeating: "é", count: 16), tags: Array(repeating: Tag(text: String(repeating: "t", count: 64)), count: 5),
                                         accent: String(repeating: "a", count: 64)), subtitle: String(repeating: "s", count: 1024)))
        let cases: [(Board, String)] = [
            (board(Card(detail: String(repeating: "d", count: 1025))), "sections[0].items[0].detail"),
            (board(Card(image: "/" + String(repeating: "i", count: 512))), "sections[0].items[0].image"),
            (board(Card(image: "https://elsewhere.example/x.png")), "sections[0].items[0].image"),
            (board(Card(image: "//elsewhere.example/x.png")), "sections[0].items[0].image"),
            (board(Card(image: "media/x.png")), "sections[0].items[0].image"),
            (board(Card(image: "/media/a\\b.png")), "sections[0].items[0].image"),
            (board(Card(badge: String(repeating: "é", count: 17))), "sections[0].items[0].badge"),
            (board(Card(tags: [Tag(text: "ok"), Tag(text: String(repeating: "t", count: 65))])), "sections[0].items[0].tags[1].text"),
            (board(Card(tags: [Tag(text: "ok", color: String(repeating: "c", count: 65))])), "sections[0].items[0].tags[0].color"),
            (board(Card(tags: Array(repeating: Tag(text: "t"), count: 6))), "sections[0].items[0].tags"),
            (board(Card(accent: String(repeating: "a", count: 65))), "sections[0].items[0].accent"),
            (board(Card(), subtitle: String(repeating: "s", count: 1025)), "sections[0].subtitle"),
        ]
        for (b, field) in cases {
            do { try BoardLimits.check(b); Issue.record("\(field) passed") } catch { #expect(error.field == field) }
        }
    }

    @Test("edits carry cards: addItem whole, updateItem field by field (an empty text takes a field away)")
    func edits() throws {
        let add = Change.addItem(Item(id: "n", label: "N", color: "#444", card: card), section: "todo", after: nil)
        var update = ItemUpdate(id: "n")
        update.detail = ""
        update.badge = "4"
        update.tags = []
        for change in [add, .updateItem(update)] {
            #expect(Wire.decodeChange(Wire.encodeChange(change)) == change)
        }
        var b = Board(id: "k", sections: [Section(id: "todo", items: [])])
        #expect(b.apply(add) != nil)
        #expect(b.sections[0].items[0].card == card)
        #expect(b.apply(.updateItem(update)) != nil)
        #expect(b.sections[0].items[0].card == Card(image: card.image, badge: "4", accent: card.accent))
    }

    @Test("an update's revert puts the card's fields back, and a replaced board's difference carries them")
    func revertAndReplace() throws {
        let before = Board(id: "k", sections: [Section(id: "todo", items: [Item(id: "a", label: "A", color: "#f00", card: card)])])
        var update = ItemUpdate(id: "a")
        update.detail = ""
        update.tags = [Tag(text: "x")]
        let revert = try #require(before.revert(of: .updateItem(update)))
        var b = before
        #expect(b.apply(.updateItem(update)) != nil)
        #expect(b.apply(revert) != nil)
        #expect(b.sections == before.sections)
        var target = before
        target.sections[0].items[0].card = Card(badge: "9")
        let changes = try #require(before.changes(to: target))
        var c = before
        for ch in changes { #expect(c.apply(ch) != nil) }
        #expect(c.sections == target.sections)
    }

    @Test("subtitles: setSubtitle sets, takes away and reverts one; a replaced board's new and changed subtitles are setSubtitle edits")
    func subtitles() throws {
        let before = Board(id: "k", sections: [Section(id: "todo", items: [], subtitle: "this week")])
        var b = before
        #expect(b.apply(.setSubtitle(id: "todo", subtitle: "this week")) == nil, "the same subtitle changes nothing")
        let revert = try #require(b.revert(of: .setSubtitle(id: "todo", subtitle: nil)))
        #expect(b.apply(.setSubtitle(id: "todo", subtitle: nil)) != nil)
        #expect(b.sections[0].subtitle == nil)
        #expect(b.apply(revert) != nil)
        #expect(b.sections == before.sections)
        for change in [Change.setSubtitle(id: "todo", subtitle: "next"), .setSubtitle(id: "todo", subtitle: nil)] {
            #expect(Wire.decodeChange(Wire.encodeChange(change)) == change)
        }
        var target = before
        target.sections[0].subtitle = "next week"
        target.sections.append(Section(id: "later", items: [], subtitle: "some day"))
        let changes = try #require(before.changes(to: target))
        #expect(changes == [.addSection(id: "later", title: "later", after: "todo"), .setSubtitle(id: "todo", subtitle: "next week"),
                            .setSubtitle(id: "later", subtitle: "some day")])
    }

    @Test("Card.text reads back whatever the fields hold")
    func storeText() {
        for c in [card, Card(detail: "d3:xx:t1:c", tags: [Tag(text: ":", color: "")]), Card(badge: "🥛 12"), Card(accent: "")] {
            #expect(Card(text: c.text ?? "") == c)
        }
        #expect(Card().text == nil)
    }
}
