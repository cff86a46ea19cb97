-- Rogue: every rule of the game. (How to play: see the top of game.toml.)
--
-- A turn is one tick: game.toml sets [tick] mode = "turns", so a tick runs only when a key is
-- pressed. In on_tick the hero acts first (move, fight, pick up gold, take the stairs), then
-- every monster that is awake steps toward the hero or hits it. Hits land in on_damage.
--
-- Where things are: walls and stairs never move, so the script looks them up in the level's
-- map (scripts/maps.lua). Everything that moves or disappears (the hero, monsters, gold) is an
-- entity, and the script asks the world where it is each turn (ludus.pos, ludus.find,
-- ludus.nearest). A move is ludus.teleport to the next cell; it lands at the end of the tick,
-- so during a turn the script remembers which cells monsters have already stepped into.

local maps = require("maps")
local C = ludus.const

local CELL = 32      -- world units per grid cell

-- What a map character puts in its cell ("@", the hero, is handled on its own).
local PIECES = { ["#"] = "wall", [">"] = "stairs", ["$"] = "gold", g = "goblin", T = "troll" }

-- How each monster fights: the damage of one hit, and how often it acts (every `pace` turns).
local MONSTERS = {
  goblin = { damage = 1, pace = 1 },
  troll = { damage = 2, pace = 2 },
}

-- The four directions: the arrow (or WASD) button for each, in the order they are checked,
-- and the step it makes.
local DIRECTIONS = {
  { "left", -1, 0 },
  { "right", 1, 0 },
  { "up", 0, -1 },
  { "down", 0, 1 },
}

local map          -- the current level's map, from maps.lua
local hero         -- the hero's entity id, as ludus.spawn returned it
local said = {}    -- this turn's messages, joined into the HUD's {msg}

local function say(text)
  said[#said + 1] = text
  ludus.set("msg", table.concat(said, " "))
end

-- Grid cells are (column, row), from (1, 1) at the map's top left; the map is centred.
local function to_world(c, r)
  return (c - (#map.rows[1] + 1) / 2) * CELL, (r - (#map.rows + 1) / 2) * CELL
end

local function to_cell(x, y)
  return math.floor(x / CELL + (#map.rows[1] + 1) / 2 + 0.5),
    math.floor(y / CELL + (#map.rows + 1) / 2 + 0.5)
end

-- The map's character at a cell; outside the map counts as wall.
local function tile(c, r)
  local row = map.rows[r]
  if not row or c < 1 or c > #row then
    return "#"
  end
  return row:sub(c, c)
end

-- The entity carrying `tag` that stands in a cell, or nil: a read of the world.
local function occupant(c, r, tag)
  local x, y = to_world(c, r)
  return ludus.nearest(x, y, tag, CELL / 2)
end

-- A level starts: build it from its map. The hero keeps its hit points from the last level
-- (the game variables, like the score, carry over a ludus.load_level).
function on_start(e)
  map = maps[e.level]
  local hp = ludus.get("hp") or C.hero_health
  for r, row in ipairs(map.rows) do
    for c = 1, #row do
      local ch = row:sub(c, c)
      local x, y = to_world(c, r)
      if ch == "@" then
        hero = ludus.spawn("hero", x, y, { health = hp })
      elseif PIECES[ch] then
        ludus.spawn(PIECES[ch], x, y)
      end
    end
  end
  ludus.set("where", map.title)
  ludus.set("hp", hp)
  ludus.set("turn", ludus.get("turn") or 0)
  said = {}
  say(map.intro)
end

-- A cell's number, as a table key.
local function key(c, r)
  return r * 1000 + c
end

-- How many steps each cell is from the hero, walking around walls, up to `sight` steps: a
-- breadth-first search over the map from the hero's cell. Monsters smell the hero within
-- that range and walk downhill on it.
local function distances_from(hc, hr)
  local dist = { [key(hc, hr)] = 0 }
  local queue, head = { { hc, hr } }, 1
  while queue[head] do
    local c, r = queue[head][1], queue[head][2]
    head = head + 1
    local d = dist[key(c, r)]
    if d < C.sight then
      for _, s in ipairs(DIRECTIONS) do
        local nc, nr = c + s[2], r + s[3]
        if not dist[key(nc, nr)] and tile(nc, nr) ~= "#" then
          dist[key(nc, nr)] = d + 1
          queue[#queue + 1] = { nc, nr }
        end
      end
    end
  end
  return dist
end

-- The monsters' half of a turn. The hero now stands (or is about to stand) at (hc, hr);
-- `struck` is the monster the hero hit this turn, if any.
local function monsters_act(turn, hc, hr, struck)
  local dist = distances_from(hc, hr)
  local taken = {}   -- cells monsters step into this turn (the moves land at the tick's end)
  for _, m in ipairs(ludus.find("monster")) do
    local kind = ludus.kind(m)
    local how = MONSTERS[kind]
    local mc, mr = to_cell(ludus.pos(m))
    local d = dist[key(mc, mr)]                       -- nil: too far to smell the hero
    local dying = m == struck and ludus.health(m) <= 1
    if d and not dying and turn % how.pace == 0 then
      if d == 1 then
        ludus.damage(hero, how.damage, m)
        say("The " .. kind .. " hits you!")
      else
        -- One step closer; another monster (or one that just stepped there) blocks.
        for _, s in ipairs(DIRECTIONS) do
          local c, r = mc + s[2], mr + s[3]
          if dist[key(c, r)] == d - 1 and not taken[key(c, r)]
              and not occupant(c, r, "monster") then
            taken[key(c, r)] = true
            ludus.teleport(m, to_world(c, r))
            break
          end
        end
      end
    end
  end
end

-- One turn: runs once per key press.
function on_tick()
  local hx, hy = ludus.pos(hero)
  if not hx then
    return -- a level's first tick: the hero spawned by on_start appears at its end
  end
  local dx, dy
  for _, d in ipairs(DIRECTIONS) do
    if ludus.pressed(d[1]) then
      dx, dy = d[2], d[3]
      break
    end
  end
  if not dx and not ludus.pressed("wait") then
    return
  end
  said = {}
  ludus.set("msg", "")
  local hc, hr = to_cell(hx, hy)
  local struck
  if dx then
    local c, r = hc + dx, hr + dy
    local foe = occupant(c, r, "monster")
    if foe then
      -- Walking into a monster attacks it; the hero stays put.
      struck = foe
      ludus.damage(foe, 1, hero)
      ludus.effect("hit", to_world(c, r))
      ludus.sound("hit")
      say("You hit the " .. ludus.kind(foe) .. ".")
    elseif tile(c, r) == "#" then
      say("A wall blocks the way.")
      return -- bumping into a wall costs no turn
    else
      hc, hr = c, r
      ludus.teleport(hero, to_world(c, r))
      local gold = occupant(c, r, "gold")
      if gold then
        ludus.destroy(gold)
        ludus.add_score(C.gold)
        ludus.effect("coin", to_world(c, r))
        ludus.sound("coin")
        say("You pick up " .. C.gold .. " gold.")
      end
    end
  end

  local turn = ludus.get("turn") + 1
  ludus.set("turn", turn)

  if tile(hc, hr) == ">" then
    if map.next then
      ludus.sound("stairs")
      ludus.load_level(map.next) -- after this tick; score and variables come along
    else
      ludus.game_over("You escaped with " .. ludus.score() .. " gold!")
    end
    return
  end

  monsters_act(turn, hc, hr, struck)
end

-- Hits, from either side, after the turn's moves.
function on_damage(events)
  for _, d in ipairs(events) do
    if d.id == hero then
      ludus.set("hp", math.max(d.health, 0))
      ludus.sound("hurt")
    end
  end
end

-- Once per creature, with the blow that did it.
function on_death(events)
  for _, d in ipairs(events) do
    ludus.destroy(d.id)
    ludus.effect("blood", d.x, d.y)
    if d.id == hero then
      ludus.game_over("Killed by a " .. ludus.kind(d.source) .. " on turn " .. ludus.get("turn"))
    else
      say("The " .. d.kind .. " dies.")
    end
  end
end
