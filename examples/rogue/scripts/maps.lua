-- The dungeon, drawn as text: one map per level, keyed by the level's name (levels/*.toml).
-- rogue.lua reads these characters when a level starts:
--
--   #  wall          .  floor          @  where the hero starts
--   >  stairs        $  a pile of gold
--   g  goblin (1 hit point, quick)     T  troll (3 hit points, slow, hits hard)
--
-- `next` names the level the stairs lead to; stairs with no `next` lead out of the dungeon.
-- Every row of a map must be as wide as the first (checked below, so `ludus check` says so).

local maps = {
  crypt = {
    title = "The Crypt",
    intro = "You wake up among the dead. Find the purple stairs!",
    next = "cellar",
    rows = {
      "#########################",
      "#@....#.........#.......#",
      "#.....#...$.....#...g...#",
      "#.....#.........#.......#",
      "#.....###.###...###.#####",
      "#.......................#",
      "###.#####.....#####.....#",
      "#$....#.........#.......#",
      "#.....#....g....#...$...#",
      "#.....#.........#.......#",
      "####.####...#####.###.###",
      "#.......#...#.......#...#",
      "#..g....#...#...$...#.>.#",
      "#...........#...........#",
      "#########################",
    },
  },
  cellar = {
    title = "The Cellar",
    intro = "You climb into the cellar. Daylight is up those stairs!",
    next = nil,
    rows = {
      "#########################",
      "#...#.......$.......#..>#",
      "#.$.#...............#...#",
      "#...#....#######....#...#",
      "#...#....#..T.$#........#",
      "#........#.....#....#####",
      "#####....##.####........#",
      "#.......................#",
      "#.g...#####...#####...g.#",
      "#.....#...........#.....#",
      "###.###...$...$...###.###",
      "#.....#...........#.....#",
      "#..@..#####...#####..$..#",
      "#.......g...............#",
      "#########################",
    },
  },
}

for name, map in pairs(maps) do
  for r, row in ipairs(map.rows) do
    if #row ~= #map.rows[1] then
      error(("map %s: row %d is %d wide, not %d"):format(name, r, #row, #map.rows[1]))
    end
  end
end

return maps
