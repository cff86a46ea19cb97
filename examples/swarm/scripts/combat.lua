-- Combat: shooting, hits, deaths, gems and the player's health.
local C = ludus.const

function on_start()
  ludus.set("hp", 6)
  ludus.music("theme")
end

-- The fire trigger (held Space), gated by its cooldown, aims at the nearest enemy
-- (aim_x, aim_y; the facing when there is none).
function on_action(events)
  for _, e in ipairs(events) do
    if e.action == "fire" then
      local v = C.bullet_speed
      ludus.spawn("bullet", e.x + e.aim_x * 18, e.y + e.aim_y * 18, { vx = e.aim_x * v, vy = e.aim_y * v })
      ludus.sound("shoot")
    end
  end
end

-- Triggers: a bullet (the trigger) touching an enemy or a wall; a gem touched by the player.
function on_trigger_enter(events)
  local spent = {}
  for _, e in ipairs(events) do
    if e.a_kind == "bullet" and not spent[e.a] then
      spent[e.a] = true
      ludus.destroy(e.a)
      ludus.effect("hit", e.ax, e.ay)
      if ludus.has(e.b_tags, "enemy") then
        ludus.damage(e.b, 1, e.a)
      end
    elseif e.a_kind == "gem" and e.b_kind == "player" and ludus.alive(e.a) then
      ludus.destroy(e.a)
      ludus.add_score(C.gem_score)
      ludus.effect("gem", e.ax, e.ay)
      ludus.sound("gem")
      -- The score it gave, floating up from where it was.
      ludus.text(e.ax, e.ay - 12, "+" .. C.gem_score, { vy = -40 })
    end
  end
end

-- Enemies touching the player hurt it: their contact_damage (enemies.toml) does that
-- without a script; on_damage below hears of each hit.

function on_damage(events)
  for _, d in ipairs(events) do
    if d.kind == "player" then
      ludus.set("hp", math.max(d.health, 0))
      ludus.effect("hurt", d.x, d.y)
      ludus.sound("hurt")
      ludus.camera_shake(8, 18)
    elseif not d.killed then
      ludus.sound("hit")
    end
  end
end

-- Once per entity, however many bullets hit it in its last tick.
function on_death(events)
  for _, d in ipairs(events) do
    ludus.destroy(d.id)
    ludus.effect("death", d.x, d.y)
    if d.kind == "player" then
      ludus.game_over("Game over")
      ludus.camera_zoom(1.5) -- a closer look at where it ended
    else
      ludus.add_score(d.kind == "brute" and 5 or 1)
      ludus.sound("death", 0.8, 0.9 + ludus.random() * 0.2)
      if ludus.random() < C.gem_chance then
        ludus.spawn("gem", d.x, d.y)
      end
    end
  end
end
