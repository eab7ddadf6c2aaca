/// The product version, as `--version` prints it and the package is numbered.
public enum Version {
    public static let current = "0.1.0"
}
