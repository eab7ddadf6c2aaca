#!/bin/sh
# Draws the bundled pictures: the default splash and the demo campaigns.
# They are committed; run this again (needs imagemagick and fonts-wqy-microhei) only to change them.
set -eu
cd "$(dirname "$0")"
FONT=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc

# Default splash: deep blue, the product name and a welcome, for when nothing is eligible.
convert -size 1920x1080 gradient:'#0F2A47-#1F5F8B' \
    -fill '#FFFFFF22' -draw 'circle 1500,260 1500,620' -draw 'circle 320,900 320,1160' \
    -font "$FONT" -fill white -gravity center \
    -pointsize 150 -annotate +0-60 'Splashboard' \
    -pointsize 64 -fill '#D8E6F3' -annotate +0+110 '欢迎光临 · Welcome' \
    -quality 88 default-splash.jpg

# Demo campaign 1 (16:9): spring tea, green and gold.
convert -size 1920x1080 gradient:'#0B6E4F-#9BC53D' \
    -fill '#F2C14E' -draw 'circle 1420,540 1420,900' \
    -fill '#0B6E4F' -draw 'roundrectangle 1300,420 1540,660 40,40' \
    -font "$FONT" -fill white -gravity west \
    -pointsize 170 -annotate +140-120 '春茶上新' \
    -pointsize 60 -annotate +150+90 '明前龙井 · 第一批到店' \
    -quality 88 demo/spring-tea.jpg

# Demo campaign 2 (4:3, letterboxed on a 16:9 screen): the reading week, warm red.
convert -size 1600x1200 gradient:'#8C1C13-#E07A5F' \
    -fill '#F4F1DE' -draw 'polygon 400,860 800,780 1200,860 1200,1000 800,920 400,1000' \
    -fill '#3D405B' -draw 'rectangle 796,780 804,920' \
    -font "$FONT" -fill '#F4F1DE' -gravity north \
    -pointsize 150 -annotate +0+230 '读书周' \
    -pointsize 56 -annotate +0+450 '全场图书 满百减二十' \
    -quality 88 demo/reading-week.jpg

# Demo campaign 3 (16:9): night market, indigo with lanterns.
convert -size 1920x1080 gradient:'#1B1B3A-#693668' \
    -fill '#F7B32B' -draw 'ellipse 360,300 70,90 0,360' -draw 'ellipse 620,240 70,90 0,360' -draw 'ellipse 880,320 70,90 0,360' \
    -font "$FONT" -fill white -gravity east \
    -pointsize 160 -annotate +150-40 '周五夜市' \
    -pointsize 58 -annotate +150+140 '18:00 开市 · 东门广场' \
    -quality 88 demo/night-market.jpg
