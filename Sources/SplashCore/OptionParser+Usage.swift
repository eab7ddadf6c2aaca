extension OptionParser {
    /// The `--help` text.
    public static let usage = """
    Usage: splashboard [run] [options]      run the kiosk (the default)
           splashboard sync [options]       one sync now; prints a summary; exit 0 ok, 1 failed
           splashboard campaigns [--json] [--thumbnails DIR]
                                            the stored campaigns: remaining shows, cached, eligible;
                                            --thumbnails writes their stored thumbnails as JPEG files
           splashboard cache clear          empty the image cache (the ledger is kept)
           splashboard status [--json]      ask the running kiosk what is on its screen
           splashboard screenshot FILE.png  the running kiosk's screen, as a person sees it

    Full-screen splash display for kiosks: a campaign image with a 跳过 N countdown,
    then a detail screen with a poetry panel.

    Options (each may also be a `key = value` line in the config file):
      --config PATH            config file (default \(DefaultPaths.systemConfig) when it exists)
      --feed URL               campaign feed: http(s):// or file:// URL, or a path (default: bundled demo)
      --data-dir DIR           database folder (default: $STATE_DIRECTORY or ~/.local/state/splashboard)
      --cache-dir DIR          image cache folder (default: $CACHE_DIRECTORY or ~/.cache/splashboard)
      --countdown N            seconds on the splash, 1-30 (default 3)
      --pick newest|rotate     among the eligible campaigns of the top priority: the newest, or
                               each in turn, the least recently shown first (default newest)
      --fit fit|fill           letterbox the image, or crop it to cover (default fit)
      --background #RRGGBB     letterbox colour (default #000000)
      --fallback image|skip    nothing eligible: default image, or no splash (default image)
      --attract-after SECONDS  idle detail screen returns to the splash; 0 = never (default 60)
      --sync-interval SECONDS  feed sync period (default 900)
      --cache-max-mb MB        image cache size cap (default 256)
      --device-id ID           who this kiosk is to its fleet (default: derived from
                               /etc/machine-id for this application, never the machine id itself)
      --allow-private-addresses auto|yes|no
                               may pictures, poems and redirects lead to loopback, LAN or
                               link-local addresses? auto: only when the feed is itself on one
                               (or a file) (default auto)
      --metrics-file PATH|off  keep Prometheus metrics in this file (default: splashboard.prom in
                               /var/lib/prometheus/node-exporter when that folder exists)
      --report-url URL         report every show (proof of play) as OTLP/HTTP JSON logs to this
                               receiver, e.g. http://collector:4318/v1/logs (default: off)
      --poetry-url URL         poem source in the jinrishici v1 shape (default: bundled poems)
      --poetry-image-url URL   poem picture
      --poetry-refresh SECONDS poetry panel refresh (default 300)
      --font PATH              font file (default: a Chinese font found with fontconfig)
      --rotate 0|90|180|270    draw rotated, for screens mounted on their side
      --drm-device PATH        on the console: the DRM device to draw on (default: the first
                               with a screen connected)
      --size WxH               window or canvas size (default: the display; headless 1280x720)
      --log-format text|json   text on stderr, or JSON lines on stdout (default text)
      --wait-for-display       no display yet: wait and retry instead of exiting (the service does)
      --network-socket PATH    use the network process listening on PATH (the system service's)
                               instead of starting one (default: start one)

    Headless and test options:
      --headless               no display: SDL's dummy driver and the software renderer
      --snapshot DIR           write a PNG of every distinct screen
      --exit-after WHEN        first-frame, splash, detail, or a number of seconds
      --clock real|virtual     virtual: time jumps to the next deadline instead of sleeping
      --script FILE            scripted input: `<seconds> tap X Y | tap skip | hold X Y S |
                               swipe X1 Y1 X2 Y2 S | key escape|pagedown|…`

      --help                   this text
      --version                the version
    """
}
