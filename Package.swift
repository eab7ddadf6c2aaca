// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Splashboard",
    products: [
        .executable(name: "splashboard", targets: ["splashboard"]),
        .executable(name: "splashboard-net", targets: ["splashboard-net"]),
        .executable(name: "splashboard-media", targets: ["splashboard-media"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSDL2",
            providers: [.apt(["libsdl2-dev"])]
        ),
        // SDL2_image: only the tests, to write and read their pictures as a third party would.
        .systemLibrary(
            name: "CSDL2Image",
            providers: [.apt(["libsdl2-image-dev"])]
        ),
        // FreeType and HarfBuzz: every line of text, shaped and drawn as coverage.
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev"])]
        ),
        // pixman: every frame drawn in memory (fills, copies, scaling, text, turning).
        .systemLibrary(
            name: "CPixman",
            pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]
        ),
        // giflib: a GIF's first frame, decoded by the display only.
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),
        .systemLibrary(
            name: "CX11",
            providers: [.apt(["libx11-dev"])]
        ),
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        // FFmpeg's libraries, found by the linker (four pkg-config names): only the media
        // process links them.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // libcurl, called directly by the network process's fetcher alone.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(name: "CSystem"),
        // The rules, as values: no I/O, no clock.
        .target(name: "SplashCore"),
        // The device's own services: files opened untrusted, Unix sockets and the line
        // channel, the monotonic clock, workers, the journal, the config file's reading.
        .target(
            name: "SplashServices",
            dependencies: ["SplashCore", "CSystem"]
        ),
        // The device's storage: the database and its ledger, the picture cache.
        .target(
            name: "SplashStorage",
            dependencies: ["SplashCore", "SplashServices", "CSQLite"]
        ),
        // Pictures decoded into plain pixels, checked and thumbnailed: no SDL.
        .target(
            name: "SplashPictures",
            dependencies: ["SplashCore", "SplashServices", "CTurboJPEG", "CPNG", "CWebP"]
        ),
        // The display's side of the line to the network process.
        .target(
            name: "SplashLink",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage"]
        ),
        // Everything that speaks to the network: only the network process links it.
        .target(
            name: "SplashNetwork",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "CCurl"]
        ),
        // Clips demuxed, decoded and scaled (FFmpeg), the probe before caching, and the
        // media process's side of a clip being played: only the media process links it.
        .target(
            name: "SplashMedia",
            dependencies: ["SplashCore", "SplashServices", "CFFmpeg", "CSystem"]
        ),
        .target(
            name: "SplashFonts",
            dependencies: ["CFontconfig"]
        ),
        .target(
            name: "SplashDisplay",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "SplashLink", "CSDL2",
                           "CHarfBuzz", "CPixman", "CGIF", "CFontconfig", "SplashFonts", "CX11", "CDRM", "CQRencode", "CSystem"]
        ),
        // The display process and the commands: no networking code at all.
        .executableTarget(
            name: "splashboard",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "SplashLink", "SplashDisplay",
                           "CSystem"]
        ),
        // The network process: feed sync, pictures, poems; no display, no input devices.
        .executableTarget(
            name: "splashboard-net",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "SplashNetwork", "SplashFonts",
                           "CSystem"]
        ),
        // The media process: probes clips for the network process, plays them for the display.
        .executableTarget(
            name: "splashboard-media",
            dependencies: ["SplashCore", "SplashServices", "SplashMedia", "CSystem"]
        ),
        .target(
            name: "SplashTestSupport",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "CSDL2", "CSDL2Image", "CWebP"],
            path: "Tests/SplashTestSupport",
            exclude: ["fault_server.py", "hostile_network.py", "otlp_receiver.py", "raw_server.py"]
        ),
        .testTarget(name: "SplashCoreTests", dependencies: ["SplashCore"]),
        .testTarget(
            name: "SplashServicesTests",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "SplashLink", "SplashNetwork",
                           "SplashTestSupport", "CSQLite", "CTurboJPEG"]
        ),
        .testTarget(
            name: "SplashDisplayTests",
            dependencies: ["SplashCore", "SplashServices", "SplashStorage", "SplashPictures", "SplashLink", "SplashDisplay",
                           "SplashFonts",
                           "SplashTestSupport", "CSDL2", "CSDL2Image", "CGIF"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
