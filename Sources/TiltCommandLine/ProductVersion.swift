/// The version of tiltpuzzle: every program prints it, the daemon greets clients with
/// it. The one place it is written (the Debian changelog names the same).
public enum ProductVersion {
    public static let current = "0.1.0"
}
