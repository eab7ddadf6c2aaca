#ifndef SPLASHBOARD_CFFMPEG_SHIM_H
#define SPLASHBOARD_CFFMPEG_SHIM_H

// Debian's FFmpeg (libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev): only
// the media process links it.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

/// AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import.
static inline int splash_av_eagain(void) { return AVERROR(EAGAIN); }
static inline int splash_av_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE is a macro of a cast.
static inline int64_t splash_av_nopts(void) { return AV_NOPTS_VALUE; }
/// AVSEEK_SIZE, asked of an I/O context's seek callback for the stream's size.
static inline int splash_avseek_size(void) { return AVSEEK_SIZE; }
/// av_err2str is a macro over a compound literal.
static inline void splash_av_error_text(int error, char *buffer, size_t size) { av_strerror(error, buffer, size); }
/// Whether frames of pixel format `format` may hold transparency (unknown: they may).
static inline int splash_av_format_has_alpha(int format) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat)format);
    return descriptor == NULL || (descriptor->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
}

/// How long a decoded frame is shown, in its stream's time base (0 when unknown): FFmpeg 5.1
/// (Debian 12) has only `pkt_duration`, FFmpeg 7 (Debian 13) only `duration`.
static inline int64_t splash_av_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_MAJOR >= 58
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

#endif
