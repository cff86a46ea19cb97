-- Hop's rules: coins, hazards and lives, the switch and its rock wall, the lift's turns, flags,
-- winning and losing.
--
-- No motion here: running, jumping, falling and landing are the engine's (game.toml's
-- [physics] gravity and the hopper's platformer control). This script only decides what
-- touching things means.
local C = ludus.const

local NAMES = { meadow = "The Meadow", cliffs = "The Cliffs" }
local NEXT = { meadow = "cliffs" } -- the level each flag leads to; the last flag wins

local level          -- this level's name
local player         -- the hopper's id in this level
local start_x, start_y -- where it began the level: where a hazard sends it back
local hurt_tick = -1   -- the tick it last lost a life (so two hazards at once cost one)
local finished = false -- a flag was touched: nothing else happens in this level
local ouch_timer       -- the timer that clears "OUCH"
local coins_seen = 0   -- coins placed in the levels played so far (this one included)

-- Scripts keep their globals across a level switch (not across a restart), so these are
-- reset here for each level, and coins_seen adds up over the levels.
function on_start(s)
  level = s.level
  player = ludus.find("player")[1]
  start_x, start_y = ludus.pos(player)
  hurt_tick = -1
  finished = false
  ouch_timer = nil -- the last level's timers are gone with it
  coins_seen = coins_seen + ludus.count("coin")
  ludus.set("where", NAMES[s.level])
  ludus.set("banner", "")
  -- Lifts turn round every `lift_turn` ticks. on_start runs in the level's first tick, after
  -- the lift's first move, so the first turn comes one tick sooner.
  for _, lift in ipairs(ludus.find("lift")) do
    ludus.every(C.lift_turn, "turn_lift", { target = lift, delay = C.lift_turn - 1 })
  end
end

local function lose_life(x, y)
  local lives = ludus.get("lives") - 1
  ludus.set("lives", lives)
  ludus.effect("ouch", x, y)
  ludus.sound("ouch")
  if lives <= 0 then
    ludus.game_over("GAME OVER")
    return
  end
  -- Back to the start of the level, standing still.
  ludus.teleport(player, start_x, start_y)
  ludus.velocity(player, 0, 0)
  ludus.set("banner", "OUCH")
  if ouch_timer then
    ludus.cancel(ouch_timer)
  end
  ouch_timer = ludus.after(C.ouch_ticks, "clear_banner")
end

-- The switch at (x, y) crumbles the rock wall ahead of it: the first rock tile (`R` in the
-- tile map's legend) to its right, and every rock above it. ludus.tile reads the map as the
-- stage began, so the loop walks up the wall while ludus.set_tile takes its tiles out; their
-- collision goes with them at the end of the tick.
local function crumble_wall(x, y)
  local wx = x
  while ludus.tile(wx, y) ~= "R" and wx < x + 640 do
    wx = wx + 32
  end
  while ludus.tile(wx, y) == "R" do
    ludus.set_tile(wx, y, " ")
    ludus.effect("crumble", wx, y)
    y = y - 32
  end
  ludus.sound("crumble")
end

-- `coins`: the coins collected, this tick's included.
local function reach_flag(x, y, coins)
  finished = true
  ludus.add_score(C.flag_score)
  ludus.effect("flag", x, y)
  ludus.sound("flag")
  if NEXT[level] then
    ludus.load_level(NEXT[level])
  else
    ludus.game_over(string.format("YOU WIN with %d of %d coins", coins, coins_seen))
  end
end

-- Every trigger reports the player touching it: a = the trigger (coin, hazard or flag),
-- b = the player.
function on_trigger_enter(events)
  if finished then
    return
  end
  -- ludus.get reads the value from the start of the stage, so this tick's coins are counted
  -- here and set once.
  local coins = ludus.get("coins")
  local got = 0
  for _, e in ipairs(events) do
    if ludus.has(e.a_tags, "coin") and ludus.alive(e.a) then
      ludus.destroy(e.a)
      got = got + 1
      ludus.add_score(C.coin_score)
      ludus.effect("coin", e.ax, e.ay)
      ludus.sound("coin")
    elseif ludus.has(e.a_tags, "switch") and ludus.alive(e.a) then
      ludus.destroy(e.a)
      crumble_wall(e.ax, e.ay)
    elseif ludus.has(e.a_tags, "hazard") and hurt_tick ~= e.tick then
      hurt_tick = e.tick
      lose_life(e.bx, e.by)
    elseif ludus.has(e.a_tags, "flag") then
      reach_flag(e.ax, e.ay, coins + got)
      break
    end
  end
  if got > 0 then
    ludus.set("coins", coins + got)
  end
end

function on_timer(events)
  for _, t in ipairs(events) do
    if t.name == "turn_lift" then
      -- The lift moves by its own velocity; turning it round is a rule of this level.
      local vx, vy = ludus.vel(t.target)
      ludus.velocity(t.target, -vx, -vy)
    elseif t.name == "clear_banner" then
      ludus.set("banner", "")
      ouch_timer = nil
    end
  end
end
