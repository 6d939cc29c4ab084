import ArgumentParser
import LiftboardCore

@main
struct Liftboard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "liftboard",
        abstract: "Server-driven drag-to-reorder: serve boards, replay and test event streams, benchmark.",
        subcommands: [ServeCommand.self, ReplayCommand.self, TestCommand.self, DescribeCommand.self, BenchCommand.self, LoadCommand.self, TokenCommand.self])
}
