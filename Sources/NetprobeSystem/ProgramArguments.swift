import CLibc

/// The command line as main was given it, read without /proc: Swift's `CommandLine` reads
/// /proc/self/cmdline on Linux and, where /proc is missing, finds no arguments at all, which a
/// parser would take for the default command. Kept by the C library's initialisers
/// (`arguments.c`), which also hand it to the standard library.
public enum ProgramArguments {
    /// The arguments, the program's name first; nil when they cannot be known (the C library
    /// gave the initialisers none) or the vector is empty (a program started with no argv[0]):
    /// then nothing may be run on a guess.
    public static func read() -> [String]? {
        let count = np_program_argc()
        guard count > 0 else { return nil }
        var arguments: [String] = []
        arguments.reserveCapacity(Int(count))
        for index in 0..<count {
            guard let argument = np_program_argument(index) else { return nil }
            arguments.append(String(cString: argument))  // as CommandLine decodes them: bad UTF-8 repaired
        }
        return arguments
    }
}
